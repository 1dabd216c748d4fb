export { earthMoversDistance } from './transport';
export type { TransportOptions, TransportSolution } from './transport';
