"""Writes the HLO of placement.test's mixed placement: a softmax loss whose
tensors fill over a quarter of a small-pod-4 chip each (the logits of a
[64,64] x [64,512] dot, 128 KiB) between two chains of N transposes of a
64x64 matrix (each an exchange, as an LSTM's many small steps are). Spread,
every small exchange spans every chip; in a mixed placement the loss's ops
are spread over a group of chips and the chains go in stages on the
others, with copies into and out of the group laid out over its tiles.

  gen_mixed_loss.py N > mixed_loss.hlo
"""

import sys

n = int(sys.argv[1])
print("HloModule mixed_loss\n")
print("max_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT m = f32[] maximum(a, b)\n}\n")
print("add_f32 {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n"
      "  ROOT s = f32[] add(a, b)\n}\n")
print("ENTRY main {")
print("  s0 = f32[64,64] parameter(0)")
print("  w = f32[64,512] parameter(1)")
print("  b = f32[512] parameter(2)")
for i in range(1, n + 1):
    print(f"  s{i} = f32[64,64] transpose(s{i - 1}), dimensions={{1,0}}")
print(f"""  logits = f32[64,512] dot(s{n}, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}
  bb = f32[64,512] broadcast(b), dimensions={{1}}
  z = f32[64,512] add(logits, bb)
  ninf = f32[] constant(-inf)
  m = f32[64] reduce(z, ninf), dimensions={{1}}, to_apply=max_f32
  mb = f32[64,512] broadcast(m), dimensions={{0}}
  zc = f32[64,512] subtract(z, mb)
  e = f32[64,512] exponential(zc)
  zero = f32[] constant(0)
  sum = f32[64] reduce(e, zero), dimensions={{1}}, to_apply=add_f32
  sb = f32[64,512] broadcast(sum), dimensions={{0}}
  p = f32[64,512] divide(e, sb)
  g0 = f32[64,64] dot(p, w), lhs_contracting_dims={{1}}, rhs_contracting_dims={{1}}""")
for i in range(1, n + 1):
    print(f"  g{i} = f32[64,64] transpose(g{i - 1}), dimensions={{1,0}}")
print(f"  ROOT r = (f32[64], f32[64,64]) tuple(sum, g{n})")
print("}")
