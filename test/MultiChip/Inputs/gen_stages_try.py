"""Writes the HLO of placement.test's stages try: a 256x144 f32 transpose
(its operand and result, 144 KiB each, fill over half a small-pod-4 chip,
so the search spreads) and a chain of N transposes of a 64x64 matrix, each
an exchange. Spread, every exchange spans every chip and each tile keeps
all their code; in stages each chip keeps its stage's.

  gen_stages_try.py N > stages_try.hlo
"""

import sys

n = int(sys.argv[1])
print("HloModule stages_try\n\nENTRY main {")
print("  x = f32[256,144] parameter(0)")
print("  s0 = f32[64,64] parameter(1)")
print("  t = f32[144,256] transpose(x), dimensions={1,0}")
for i in range(1, n + 1):
    print(f"  s{i} = f32[64,64] transpose(s{i - 1}), dimensions={{1,0}}")
print(f"  ROOT r = (f32[144,256], f32[64,64]) tuple(t, s{n})")
print("}")
