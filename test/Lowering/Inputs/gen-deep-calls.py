"""Writes an HLO module whose entry calls a chain of N nested computations
(test/Lowering/deep-calls.test). usage: gen-deep-calls.py N"""
import sys

n = int(sys.argv[1])
print("HloModule deep\n")
print("%c0 (p: f32[4]) -> f32[4] {\n  %p = f32[4] parameter(0)\n"
      "  ROOT %n = f32[4] negate(f32[4] %p)\n}\n")
for i in range(1, n):
    print(f"%c{i} (p: f32[4]) -> f32[4] {{\n  %p = f32[4] parameter(0)\n"
          f"  ROOT %r = f32[4] call(f32[4] %p), to_apply=%c{i - 1}\n}}\n")
print(f"ENTRY %main (x: f32[4]) -> f32[4] {{\n  %x = f32[4] parameter(0)\n"
      f"  ROOT %r = f32[4] call(f32[4] %x), to_apply=%c{n - 1}\n}}")
