;; Kernels for the learn step on the wasm backend (src/rl/wasmKernels.ts runs them). Each works on
;; tensors in tfjs-backend-wasm's own memory, which this module imports, and writes exactly the numbers
;; the TF.js ops it replaces write there (the tests compare them bit for bit), in one pass instead of
;; several. Addresses and sizes are i32: byte offsets into the memory, and counts of float32s.
;; After an edit: npm run build:kernels (writes wasmKernelsBinary.ts; a test checks the two agree).
(module
  (import "env" "memory" (memory 1))

  ;; dst [cols x rows] = the transpose of src [rows x cols] (tf.transpose), in blocks of 64 rows: each
  ;; column of a block is written as one run while the block's rows are in the cache.
  (func $transpose (export "transpose") (param $src i32) (param $dst i32) (param $rows i32) (param $cols i32)
    (local $i0 i32) (local $i1 i32) (local $j i32) (local $s i32) (local $d i32) (local $e i32) (local $stride i32)
    (local.set $stride (i32.shl (local.get $cols) (i32.const 2)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i0) (local.get $rows)))
        (local.set $i1 (i32.add (local.get $i0) (i32.const 64)))
        (if (i32.gt_u (local.get $i1) (local.get $rows)) (then (local.set $i1 (local.get $rows))))
        (local.set $j (i32.const 0))
        (loop $columns
          (local.set $s (i32.add (local.get $src) (i32.shl (i32.add (i32.mul (local.get $i0) (local.get $cols)) (local.get $j)) (i32.const 2))))
          (local.set $d (i32.add (local.get $dst) (i32.shl (i32.add (i32.mul (local.get $j) (local.get $rows)) (local.get $i0)) (i32.const 2))))
          (local.set $e (i32.add (local.get $d) (i32.shl (i32.sub (local.get $i1) (local.get $i0)) (i32.const 2))))
          (loop $inner
            (f32.store (local.get $d) (f32.load (local.get $s)))
            (local.set $s (i32.add (local.get $s) (local.get $stride)))
            (local.set $d (i32.add (local.get $d) (i32.const 4)))
            (br_if $inner (i32.lt_u (local.get $d) (local.get $e))))
          (local.set $j (i32.add (local.get $j) (i32.const 1)))
          (br_if $columns (i32.lt_u (local.get $j) (local.get $cols))))
        (local.set $i0 (local.get $i1))
        (br $blocks))))

  ;; out[r, k, s] = relu(a[r, k, s] + c[r, s]) for r < rows, k < items, s < width (width a multiple of 4):
  ;; a scorer's hidden layer, x·w plus the row's context. relu as tf.relu computes it on wasm, by the
  ;; sign bit: the larger of the bits as a signed integer and 0, so -0 and a NaN with its sign bit set
  ;; give +0, and any other NaN stays.
  (func (export "addRelu") (param $a i32) (param $c i32) (param $out i32) (param $rows i32) (param $items i32) (param $width i32)
    (local $r i32) (local $k i32) (local $s i32) (local $crow i32) (local $rowBytes i32) (local $p i32) (local $q i32) (local $x v128)
    (local.set $rowBytes (i32.shl (local.get $width) (i32.const 2)))
    (local.set $crow (local.get $c))
    (local.set $p (local.get $a))
    (local.set $q (local.get $out))
    (block $done
      (loop $rowsLoop
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $k (i32.const 0))
        (block $itemsDone
          (loop $itemsLoop
            (br_if $itemsDone (i32.ge_u (local.get $k) (local.get $items)))
            (local.set $s (i32.const 0))
            (loop $widthLoop
              (local.set $x (f32x4.add (v128.load (i32.add (local.get $p) (local.get $s))) (v128.load (i32.add (local.get $crow) (local.get $s)))))
              (v128.store (i32.add (local.get $q) (local.get $s))
                (i32x4.max_s (local.get $x) (v128.const i32x4 0 0 0 0)))
              (local.set $s (i32.add (local.get $s) (i32.const 16)))
              (br_if $widthLoop (i32.lt_u (local.get $s) (local.get $rowBytes))))
            (local.set $p (i32.add (local.get $p) (local.get $rowBytes)))
            (local.set $q (i32.add (local.get $q) (local.get $rowBytes)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $itemsLoop)))
        (local.set $crow (i32.add (local.get $crow) (local.get $rowBytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $rowsLoop))))

  ;; c [p x q] = the sum over k in [0, n) of the outer product a_k ⊗ b_k, b [n x q] a tall matrix
  ;; whose rows are b_k, and a_k element i at a + k·aRow + i·aCol (bytes): a tall [n x p] matrix
  ;; (aRow 4p, aCol 4) or its transpose [p x n] (aRow 4, aCol 4n). That is aᵀ · b or a · b, the
  ;; product tf.matMul writes on wasm: each element summed from +0 in the order of k, each term a_k[i]
  ;; b_k[j] rounded to float32 before it is added. XNNPACK, which tfjs-backend-wasm's product runs,
  ;; walks all n rows for each tile of four rows of c and streams the whole of b again for each of them
  ;; (for 18,432 rows of 65 that is about 100 MB an epoch); here c stays in the cache and a and b are
  ;; read once, four rows of b at a time (each element of c loaded and stored once per four terms).
  (func (export "tallProduct") (param $a i32) (param $aRow i32) (param $aCol i32) (param $b i32) (param $c i32)
                               (param $n i32) (param $p i32) (param $q i32)
    (local $qBytes i32) (local $q4Bytes i32) (local $k i32) (local $i i32) (local $j i32)
    (local $ap i32) (local $bp i32) (local $cp i32) (local $g i32) (local $cEnd i32) (local $rows i32)
    (local $s0 f32) (local $s1 f32) (local $s2 f32) (local $s3 f32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local.set $qBytes (i32.shl (local.get $q) (i32.const 2)))
    (local.set $q4Bytes (i32.and (local.get $qBytes) (i32.const -16)))
    ;; c starts at +0 (a product with no bias adds its first term to 0)
    (local.set $cEnd (i32.add (local.get $c) (i32.mul (local.get $p) (local.get $qBytes))))
    (local.set $cp (local.get $c))
    (block $zeroDone
      (loop $zero
        (br_if $zeroDone (i32.ge_u (local.get $cp) (local.get $cEnd)))
        (f32.store (local.get $cp) (f32.const 0))
        (local.set $cp (i32.add (local.get $cp) (i32.const 4)))
        (br $zero)))
    (if (i32.or (i32.eqz (local.get $p)) (i32.eqz (local.get $q))) (then (return)))
    (block $done
      (loop $steps
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        ;; four rows of a and b while four are left, then one
        (local.set $rows (select (i32.const 4) (i32.const 1) (i32.le_u (i32.add (local.get $k) (i32.const 4)) (local.get $n))))
        (local.set $ap (i32.add (local.get $a) (i32.mul (local.get $k) (local.get $aRow))))
        (local.set $bp (i32.add (local.get $b) (i32.mul (local.get $k) (local.get $qBytes))))
        (local.set $cp (local.get $c))
        (local.set $i (i32.const 0))
        (loop $outRows
          (local.set $s0 (f32.load (local.get $ap)))
          (local.set $v0 (f32x4.splat (local.get $s0)))
          (local.set $j (i32.const 0))
          (if (i32.eq (local.get $rows) (i32.const 4))
            (then
              (local.set $s1 (f32.load (i32.add (local.get $ap) (local.get $aRow))))
              (local.set $s2 (f32.load (i32.add (local.get $ap) (i32.shl (local.get $aRow) (i32.const 1)))))
              (local.set $s3 (f32.load (i32.add (local.get $ap) (i32.mul (local.get $aRow) (i32.const 3)))))
              (local.set $v1 (f32x4.splat (local.get $s1)))
              (local.set $v2 (f32x4.splat (local.get $s2)))
              (local.set $v3 (f32x4.splat (local.get $s3)))
              (block $vec4Done
                (loop $vec4
                  (br_if $vec4Done (i32.ge_u (local.get $j) (local.get $q4Bytes)))
                  (local.set $g (i32.add (local.get $bp) (local.get $j)))
                  (v128.store (i32.add (local.get $cp) (local.get $j))
                    (f32x4.add
                      (f32x4.add
                        (f32x4.add
                          (f32x4.add (v128.load (i32.add (local.get $cp) (local.get $j))) (f32x4.mul (local.get $v0) (v128.load (local.get $g))))
                          (f32x4.mul (local.get $v1) (v128.load (i32.add (local.get $g) (local.get $qBytes)))))
                        (f32x4.mul (local.get $v2) (v128.load (i32.add (local.get $g) (i32.shl (local.get $qBytes) (i32.const 1))))))
                      (f32x4.mul (local.get $v3) (v128.load (i32.add (local.get $g) (i32.mul (local.get $qBytes) (i32.const 3)))))))
                  (local.set $j (i32.add (local.get $j) (i32.const 16)))
                  (br $vec4)))
              (block $one4Done
                (loop $one4
                  (br_if $one4Done (i32.ge_u (local.get $j) (local.get $qBytes)))
                  (local.set $g (i32.add (local.get $bp) (local.get $j)))
                  (f32.store (i32.add (local.get $cp) (local.get $j))
                    (f32.add
                      (f32.add
                        (f32.add
                          (f32.add (f32.load (i32.add (local.get $cp) (local.get $j))) (f32.mul (local.get $s0) (f32.load (local.get $g))))
                          (f32.mul (local.get $s1) (f32.load (i32.add (local.get $g) (local.get $qBytes)))))
                        (f32.mul (local.get $s2) (f32.load (i32.add (local.get $g) (i32.shl (local.get $qBytes) (i32.const 1))))))
                      (f32.mul (local.get $s3) (f32.load (i32.add (local.get $g) (i32.mul (local.get $qBytes) (i32.const 3)))))))
                  (local.set $j (i32.add (local.get $j) (i32.const 4)))
                  (br $one4))))
            (else
              (block $vec1Done
                (loop $vec1
                  (br_if $vec1Done (i32.ge_u (local.get $j) (local.get $q4Bytes)))
                  (v128.store (i32.add (local.get $cp) (local.get $j))
                    (f32x4.add (v128.load (i32.add (local.get $cp) (local.get $j))) (f32x4.mul (local.get $v0) (v128.load (i32.add (local.get $bp) (local.get $j))))))
                  (local.set $j (i32.add (local.get $j) (i32.const 16)))
                  (br $vec1)))
              (block $one1Done
                (loop $one1
                  (br_if $one1Done (i32.ge_u (local.get $j) (local.get $qBytes)))
                  (f32.store (i32.add (local.get $cp) (local.get $j))
                    (f32.add (f32.load (i32.add (local.get $cp) (local.get $j))) (f32.mul (local.get $s0) (f32.load (i32.add (local.get $bp) (local.get $j))))))
                  (local.set $j (i32.add (local.get $j) (i32.const 4)))
                  (br $one1)))))
          (local.set $ap (i32.add (local.get $ap) (local.get $aCol)))
          (local.set $cp (i32.add (local.get $cp) (local.get $qBytes)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br_if $outRows (i32.lt_u (local.get $i) (local.get $p))))
        (local.set $k (i32.add (local.get $k) (local.get $rows)))
        (br $steps))))

;; The backward pass of a scorer's hidden layer z [n x width] (n = rows x items), whose scores are
  ;; z · w with w [width x outs] (outs 1 or 2), given the scores' gradient d [n x outs]:
  ;;   dz [n x width]      (d · wᵀ) ⊙ step(z): each element (0 + d[i,0] w[s,0]) + d[i,1] w[s,1] (outs 2) or
  ;;                       d[i] w[s] (outs 1), times step (1 above 0, NaN for NaN, else 0), as tf.matMul or
  ;;                       tf.mul and tf.step compute them on wasm;
  ;;   ctxT [width x rows] the sum of dz over each row's items, from +0 in their order (tf.sum);
  ;;   gwT [outs x width]  the output weights' gradient, transposed: gwT[o, s] = the sum over i of
  ;;                       z[i, s] d[i, o], from +0 in the order of i, as tf.matMul(zᵀ, d) computes it on wasm.
  ;; In blocks of whole rows, about 128 items (16 KiB of z at width 32): for each four columns s of
  ;; the block, the items in order, with those columns' weights, gradient sums and row sum held in
  ;; registers, so each element of z is read from memory once and dz written once, row by row.
  (func (export "scorerBack") (param $z i32) (param $d i32) (param $w i32) (param $dz i32) (param $ctxT i32) (param $gwT i32)
                              (param $rows i32) (param $items i32) (param $width i32) (param $outs i32)
    (local $blockRows i32) (local $l0 i32) (local $l1 i32) (local $l i32) (local $it i32) (local $g i32)
    (local $stride i32) (local $dStride i32) (local $zp i32) (local $dp i32) (local $cp i32) (local $rowBytes i32)
    (local $w0v v128) (local $w1v v128) (local $gw0 v128) (local $gw1 v128) (local $ctx v128)
    (local $zv v128) (local $d0 v128) (local $d1 v128) (local $back v128) (local $dzv v128) (local $wp i32)
    (local.set $stride (i32.shl (local.get $width) (i32.const 2)))
    (local.set $dStride (i32.shl (local.get $outs) (i32.const 2)))
    (local.set $rowBytes (i32.shl (local.get $rows) (i32.const 2)))
    ;; gwT starts at +0 (a product with no bias adds its first term to 0)
    (local.set $g (i32.const 0))
    (block $zeroDone
      (loop $zero
        (br_if $zeroDone (i32.ge_u (local.get $g) (i32.mul (local.get $outs) (local.get $stride))))
        (f32.store (i32.add (local.get $gwT) (local.get $g)) (f32.const 0))
        (local.set $g (i32.add (local.get $g) (i32.const 4)))
        (br $zero)))
    (local.set $blockRows (i32.div_u (i32.const 128) (local.get $items)))
    (if (i32.eqz (local.get $blockRows)) (then (local.set $blockRows (i32.const 1))))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $l0) (local.get $rows)))
        (local.set $l1 (i32.add (local.get $l0) (local.get $blockRows)))
        (if (i32.gt_u (local.get $l1) (local.get $rows)) (then (local.set $l1 (local.get $rows))))
        ;; g: the byte offset of four columns s within a row of z
        (local.set $g (i32.const 0))
        (loop $columns
          ;; w[s, 0] and w[s, 1] for the four s (w is [width x outs], row by row)
          (local.set $wp (i32.add (local.get $w) (i32.mul (local.get $g) (local.get $outs))))
          (if (i32.eq (local.get $outs) (i32.const 2))
            (then
              (local.set $w0v (i8x16.shuffle 0 1 2 3 8 9 10 11 16 17 18 19 24 25 26 27 (v128.load (local.get $wp)) (v128.load offset=16 (local.get $wp))))
              (local.set $w1v (i8x16.shuffle 4 5 6 7 12 13 14 15 20 21 22 23 28 29 30 31 (v128.load (local.get $wp)) (v128.load offset=16 (local.get $wp))))
              (local.set $gw1 (v128.load (i32.add (i32.add (local.get $gwT) (local.get $stride)) (local.get $g)))))
            (else (local.set $w0v (v128.load (local.get $wp)))))
          (local.set $gw0 (v128.load (i32.add (local.get $gwT) (local.get $g))))
          (local.set $l (local.get $l0))
          (local.set $zp (i32.add (i32.add (local.get $z) (i32.mul (i32.mul (local.get $l0) (local.get $items)) (local.get $stride))) (local.get $g)))
          (local.set $dp (i32.add (local.get $d) (i32.mul (i32.mul (local.get $l0) (local.get $items)) (local.get $dStride))))
          (loop $rowsLoop
            (local.set $ctx (v128.const f32x4 0 0 0 0))
            (local.set $it (i32.const 0))
            (loop $itemsLoop
              (local.set $zv (v128.load (local.get $zp)))
              (local.set $d0 (f32x4.splat (f32.load (local.get $dp))))
              (if (i32.eq (local.get $outs) (i32.const 2))
                (then
                  (local.set $d1 (f32x4.splat (f32.load offset=4 (local.get $dp))))
                  (local.set $back (f32x4.add (f32x4.add (v128.const f32x4 0 0 0 0) (f32x4.mul (local.get $w0v) (local.get $d0)))
                                              (f32x4.mul (local.get $w1v) (local.get $d1))))
                  (local.set $gw1 (f32x4.add (local.get $gw1) (f32x4.mul (local.get $zv) (local.get $d1)))))
                (else (local.set $back (f32x4.mul (local.get $w0v) (local.get $d0)))))
              (local.set $gw0 (f32x4.add (local.get $gw0) (f32x4.mul (local.get $zv) (local.get $d0))))
              ;; step without a branch: 1 above 0, NaN for NaN, else 0
              (local.set $dzv (f32x4.mul (local.get $back)
                (v128.or (v128.and (f32x4.gt (local.get $zv) (v128.const f32x4 0 0 0 0)) (v128.const f32x4 1 1 1 1))
                         (v128.and (f32x4.ne (local.get $zv) (local.get $zv)) (v128.const i32x4 0x7fc00000 0x7fc00000 0x7fc00000 0x7fc00000)))))
              (v128.store (i32.add (local.get $dz) (i32.sub (local.get $zp) (local.get $z))) (local.get $dzv))
              (local.set $ctx (f32x4.add (local.get $ctx) (local.get $dzv)))
              (local.set $zp (i32.add (local.get $zp) (local.get $stride)))
              (local.set $dp (i32.add (local.get $dp) (local.get $dStride)))
              (local.set $it (i32.add (local.get $it) (i32.const 1)))
              (br_if $itemsLoop (i32.lt_u (local.get $it) (local.get $items))))
            ;; the row's sums into ctxT[s, l] for the four s
            (local.set $cp (i32.add (local.get $ctxT) (i32.add (i32.mul (i32.shr_u (local.get $g) (i32.const 2)) (local.get $rowBytes)) (i32.shl (local.get $l) (i32.const 2)))))
            (f32.store (local.get $cp) (f32x4.extract_lane 0 (local.get $ctx)))
            (f32.store (i32.add (local.get $cp) (local.get $rowBytes)) (f32x4.extract_lane 1 (local.get $ctx)))
            (f32.store (i32.add (local.get $cp) (i32.shl (local.get $rowBytes) (i32.const 1))) (f32x4.extract_lane 2 (local.get $ctx)))
            (f32.store (i32.add (local.get $cp) (i32.mul (local.get $rowBytes) (i32.const 3))) (f32x4.extract_lane 3 (local.get $ctx)))
            (local.set $l (i32.add (local.get $l) (i32.const 1)))
            (br_if $rowsLoop (i32.lt_u (local.get $l) (local.get $l1))))
          (v128.store (i32.add (local.get $gwT) (local.get $g)) (local.get $gw0))
          (if (i32.eq (local.get $outs) (i32.const 2))
            (then (v128.store (i32.add (i32.add (local.get $gwT) (local.get $stride)) (local.get $g)) (local.get $gw1))))
          (local.set $g (i32.add (local.get $g) (i32.const 16)))
          (br_if $columns (i32.lt_u (local.get $g) (local.get $stride))))
        (local.set $l0 (local.get $l1))
        (br $blocks))))
)
