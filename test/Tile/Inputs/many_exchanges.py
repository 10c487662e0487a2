"""Writes a tile program of N exchanges; those numbered in argv[2:] read
elements [0, 2) from tile 1, which holds [2, 4)."""
import sys

n = int(sys.argv[1])
bad = {int(a) for a in sys.argv[2:]}
print('tile.program @many target "t" tiles 4 {')
print('  %x = tile.var "x" parameter mapping<[0, 3] x 2 from 0> '
      ': !tile.buffer<8xf32>')
print('  %y = tile.var "y" output mapping<[0, 3] x 2 from 0> '
      ': !tile.buffer<8xf32>')
for i in range(n):
    src = 1 if i in bad else 0
    print(f'  tile.exchange "e{i}" %x -> %y copies [{src}, 0, 1, 2, 0, 0, 0, 0]'
          ' : !tile.buffer<8xf32>, !tile.buffer<8xf32>')
print('}')
