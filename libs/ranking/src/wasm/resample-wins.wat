;; Per-resample wins of every system: out[i·rb + r] += Σ_l beats[i][l] · counts[r][l]
;; (docs/adr/0043). beats: k rows of `stride` bytes from $b (k even); counts: rb rows of `stride`
;; bytes from $c (rb even); stride a multiple of 16, rows zero-padded. Products of two bytes fit
;; 16 bits (255 · 255 = 65,025); pairs of them are added into 32-bit lanes. The caller keeps every
;; sum under 2³¹ (Σ_l counts[r][l] = n, so a sum is at most 255 · n) and zeroes `out` first.
;; Instances are taken in chunks of $chunk bytes (a multiple of 16) so that the two beats rows and
;; the batch's counts rows of a chunk stay in cache while every pair of systems passes over them.
;;
;; `ties`: each listed pair's tied count in a batch of up to 16 resamples,
;; acc[slot·16 + b] += Σ_{l where the pair ties} counts[b][l]. counts16: 16 bytes per instance (the
;; batch's counts of instance l side by side, zero past the batch); start: n + 1 i32 offsets into
;; slots (CSR: instance l's cells are slots[start[l] … start[l + 1])), each cell the pair's slot.
;; A sum is at most n (the counts of a resample add up to n). The caller zeroes `acc` first.
;; Regenerate resample-wins-module.ts with `node scripts/build-wasm.mjs` after editing.
(module
  (import "env" "memory" (memory 1))
  (func (export "wins")
    (param $b i32) (param $k i32) (param $c i32) (param $rb i32) (param $stride i32) (param $chunk i32) (param $out i32)
    (local $l0 i32) (local $len i32) (local $i i32) (local $r i32) (local $l i32)
    (local $pb0 i32) (local $pb1 i32) (local $pc0 i32) (local $pc1 i32) (local $po i32)
    (local $vb0 v128) (local $vb1 v128) (local $vc0 v128) (local $vc1 v128)
    (local $a00 v128) (local $a01 v128) (local $a10 v128) (local $a11 v128)
    (block $chunks_done
      (loop $chunks
        (br_if $chunks_done (i32.ge_u (local.get $l0) (local.get $stride)))
        (local.set $len (i32.sub (local.get $stride) (local.get $l0)))
        (if (i32.gt_u (local.get $len) (local.get $chunk)) (then (local.set $len (local.get $chunk))))
        (local.set $i (i32.const 0))
        (block $systems_done
          (loop $systems
            (br_if $systems_done (i32.ge_u (local.get $i) (local.get $k)))
            (local.set $r (i32.const 0))
            (block $resamples_done
              (loop $resamples
                (br_if $resamples_done (i32.ge_u (local.get $r) (local.get $rb)))
                (local.set $pb0 (i32.add (i32.add (local.get $b) (i32.mul (local.get $i) (local.get $stride))) (local.get $l0)))
                (local.set $pb1 (i32.add (local.get $pb0) (local.get $stride)))
                (local.set $pc0 (i32.add (i32.add (local.get $c) (i32.mul (local.get $r) (local.get $stride))) (local.get $l0)))
                (local.set $pc1 (i32.add (local.get $pc0) (local.get $stride)))
                (local.set $a00 (v128.const i32x4 0 0 0 0))
                (local.set $a01 (v128.const i32x4 0 0 0 0))
                (local.set $a10 (v128.const i32x4 0 0 0 0))
                (local.set $a11 (v128.const i32x4 0 0 0 0))
                (local.set $l (i32.const 0))
                (block $inner_done
                  (loop $inner
                    (br_if $inner_done (i32.ge_u (local.get $l) (local.get $len)))
                    (local.set $vb0 (v128.load (i32.add (local.get $pb0) (local.get $l))))
                    (local.set $vb1 (v128.load (i32.add (local.get $pb1) (local.get $l))))
                    (local.set $vc0 (v128.load (i32.add (local.get $pc0) (local.get $l))))
                    (local.set $vc1 (v128.load (i32.add (local.get $pc1) (local.get $l))))
                    (local.set $a00 (i32x4.add (local.get $a00) (i32x4.add
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_low_i8x16_u (local.get $vb0) (local.get $vc0)))
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_high_i8x16_u (local.get $vb0) (local.get $vc0))))))
                    (local.set $a01 (i32x4.add (local.get $a01) (i32x4.add
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_low_i8x16_u (local.get $vb0) (local.get $vc1)))
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_high_i8x16_u (local.get $vb0) (local.get $vc1))))))
                    (local.set $a10 (i32x4.add (local.get $a10) (i32x4.add
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_low_i8x16_u (local.get $vb1) (local.get $vc0)))
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_high_i8x16_u (local.get $vb1) (local.get $vc0))))))
                    (local.set $a11 (i32x4.add (local.get $a11) (i32x4.add
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_low_i8x16_u (local.get $vb1) (local.get $vc1)))
                      (i32x4.extadd_pairwise_i16x8_u (i16x8.extmul_high_i8x16_u (local.get $vb1) (local.get $vc1))))))
                    (local.set $l (i32.add (local.get $l) (i32.const 16)))
                    (br $inner)))
                ;; out[i·rb + r], out[i·rb + r + 1], out[(i + 1)·rb + r], out[(i + 1)·rb + r + 1]
                (local.set $po (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $i) (local.get $rb)) (local.get $r)) (i32.const 2))))
                (i32.store (local.get $po) (i32.add (i32.load (local.get $po)) (call $hsum (local.get $a00))))
                (i32.store offset=4 (local.get $po) (i32.add (i32.load offset=4 (local.get $po)) (call $hsum (local.get $a01))))
                (local.set $po (i32.add (local.get $po) (i32.shl (local.get $rb) (i32.const 2))))
                (i32.store (local.get $po) (i32.add (i32.load (local.get $po)) (call $hsum (local.get $a10))))
                (i32.store offset=4 (local.get $po) (i32.add (i32.load offset=4 (local.get $po)) (call $hsum (local.get $a11))))
                (local.set $r (i32.add (local.get $r) (i32.const 2)))
                (br $resamples)))
            (local.set $i (i32.add (local.get $i) (i32.const 2)))
            (br $systems)))
        (local.set $l0 (i32.add (local.get $l0) (local.get $chunk)))
        (br $chunks))))
  (func (export "ties")
    (param $c16 i32) (param $n i32) (param $start i32) (param $slots i32) (param $acc i32)
    (local $l i32) (local $e i32) (local $end i32) (local $a i32) (local $p i32)
    (local $v v128) (local $lo v128) (local $hi v128) (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local.set $p (local.get $start))
    (local.set $e (i32.load (local.get $p)))
    (block $done
      (loop $instances
        (br_if $done (i32.ge_u (local.get $l) (local.get $n)))
        (local.set $end (i32.load offset=4 (local.get $p)))
        (if (i32.lt_u (local.get $e) (local.get $end))
          (then
            (local.set $v (v128.load (i32.add (local.get $c16) (i32.shl (local.get $l) (i32.const 4)))))
            (local.set $lo (i16x8.extend_low_i8x16_u (local.get $v)))
            (local.set $hi (i16x8.extend_high_i8x16_u (local.get $v)))
            (local.set $v0 (i32x4.extend_low_i16x8_u (local.get $lo)))
            (local.set $v1 (i32x4.extend_high_i16x8_u (local.get $lo)))
            (local.set $v2 (i32x4.extend_low_i16x8_u (local.get $hi)))
            (local.set $v3 (i32x4.extend_high_i16x8_u (local.get $hi)))
            (loop $cells
              (local.set $a (i32.add (local.get $acc)
                (i32.shl (i32.load (i32.add (local.get $slots) (i32.shl (local.get $e) (i32.const 2)))) (i32.const 6))))
              (v128.store (local.get $a) (i32x4.add (v128.load (local.get $a)) (local.get $v0)))
              (v128.store offset=16 (local.get $a) (i32x4.add (v128.load offset=16 (local.get $a)) (local.get $v1)))
              (v128.store offset=32 (local.get $a) (i32x4.add (v128.load offset=32 (local.get $a)) (local.get $v2)))
              (v128.store offset=48 (local.get $a) (i32x4.add (v128.load offset=48 (local.get $a)) (local.get $v3)))
              (local.set $e (i32.add (local.get $e) (i32.const 1)))
              (br_if $cells (i32.lt_u (local.get $e) (local.get $end))))))
        (local.set $e (local.get $end))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $l (i32.add (local.get $l) (i32.const 1)))
        (br $instances))))
  (func $hsum (param $v v128) (result i32)
    (i32.add
      (i32.add (i32x4.extract_lane 0 (local.get $v)) (i32x4.extract_lane 1 (local.get $v)))
      (i32.add (i32x4.extract_lane 2 (local.get $v)) (i32x4.extract_lane 3 (local.get $v))))))
