/**
 * @podium/embeddings — the contextual-embedding service on onnxruntime-node: verified text
 * encoders (`model.onnx` with every hidden state as an output, the model's own tokenizer.json),
 * token ids, special-token flags and offsets, hidden states of the requested layers batched by
 * length, and the host loop that scores any `embedding` metric plugin of @podium/metrics
 * (BERTScore, MoverScore, …) from them. Sessions, providers and checksums are @podium/nli's.
 */
export { encoderAvailability, type EncoderAvailability } from './availability';
export { hiddenStateOutput, loadEncoder, type EmbedOptions, type Encoder, type LoadEncoderOptions } from './encoder';
export { scoreEmbedding, withHostFiles, type EmbeddingScoreInput, type EmbeddingScoreResult, type EmbeddingTiming, type ScoreEmbeddingOptions } from './score';
export { TextTokenizer, alignOffsets } from './text-tokenizer';
export { embeddedTextToJson, parseEmbeddedJson, type EmbeddedJson } from './jsonl';
