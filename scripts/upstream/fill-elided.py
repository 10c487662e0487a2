#!/usr/bin/python3
# fill-elided.py --seed S IN.mlir -o OUT.mlir [--fill-splats]
#
# Rewrites an MLIR (TOSA) file whose weights were elided when it was printed,
# giving every `dense_resource<__elided__> : tensor<...>` seeded data of that
# type, written as a hex dense attribute `dense<"0x...">` that MLIR 19 parses:
# the raw little-endian bytes of the elements in row-major order. Element
# storage as MLIR 19 expects it (checked with mlir-opt-19):
#   f16, bf16, f32, f64          IEEE/bfloat bits, 2/2/4/8 bytes per element
#   i8/i16/i32/i64 (si/ui too)   two's complement, 1/2/4/8 bytes per element
#   other widths <= 64, index    rounded up to whole bytes (index: 8 bytes)
#   i1                           packed 8 elements a byte, element 0 in bit 0
#                                (ceil(n/8) bytes)
# Any other element type (complex, f8 kinds, ...), a dynamic dimension, or a
# dense_resource<__elided__> not followed by `: tensor<...>` / `: vector<...>`
# is an error reported as FILE:LINE with exit status 1.
#
# The data, for the constant number K (0-based, counting the constants this
# script replaces in file order), comes from numpy's PCG64 seeded with
# SeedSequence([S, K]), so it depends only on (seed, K). Floats are drawn by
# the role the constant plays, found by following its uses through
# tosa.reshape/transpose/cast/identity (so a weight that is transposed before
# its conv still counts as that conv's weight):
#   * positive: a constant from which the operand of tosa.rsqrt, tosa.log,
#     tosa.reciprocal or tosa.pow (base) is computed by
#     reshape/transpose/add/mul/cast/identity/tile/slice/concat/reduce ops
#     only (a batch norm variance in rsqrt(var + eps)):  uniform [0.5, 1.5),
#     so the model produces no NaN or inf.
#   * weight: operand 1 of tosa.conv2d, conv3d, depthwise_conv2d,
#     transpose_conv2d, fully_connected or matmul:
#     uniform [-1, 1) * min(1, sqrt(3 / fan_in)), i.e. variance 1/fan_in, so
#     a layer keeps the size of its input. fan_in = elements of the weight /
#     output channels (the last dimension of the op's result; times its first
#     for matmul's batch): I*KH*KW for conv2d whatever the weight's layout,
#     KH*KW for depthwise, K for matmul. With several uses the largest counts.
#   * scale: an operand of tosa.mul (a batch norm gamma): uniform [0.5, 1.5).
#   * other (biases, batch norm mean and beta, ...): uniform [-1, 1) *
#     1/sqrt(fan_in) with fan_in the product of all dimensions but the first
#     (1 for rank 0 and 1).
#   Priority when several apply: positive, weight, scale, other. The point of
#   the rule: a 50-layer network neither blows up nor loses its input: with
#   plain uniform [-1, 1)/sqrt(prod(dims[1:])) everywhere, small random batch
#   norm gammas shrink the signal at every layer and ResNet-18's output
#   changed by 4e-8 between two different inputs.
#   Integers: uniform in [0, 8); i1: 0 or 1.
#
# --fill-splats also replaces splat float constants with more than one
# element (`dense<0.5> : tensor<3x3x32x1xf32>` on tosa.const/arith.constant),
# by the same rules. Some corpus files (mobilenetv2_tf.mlir) carry their
# weights as such splats instead of elided resources; with every weight equal
# every class gets the same logit and the model's output is constant.
#
# OUT is written through a temporary file in its directory and renamed into
# place, so it is either the complete new file or untouched.
import argparse
import math
import os
import re
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    sys.exit("fill-elided.py: needs numpy: run it with Debian's /usr/bin/python3 "
             "(package python3-numpy, which scripts/setup.sh installs)")


class InputError(Exception):
    pass


ELIDED_RE = re.compile(r'dense_resource<__elided__>')
TYPE_AFTER_RE = re.compile(r'\s*:\s*(tensor|vector)<([^<>]*)>')
SPLAT_RE = re.compile(
    r'dense<\s*([-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|0x[0-9a-fA-F]+|inf|nan))\s*>'
    r'(\s*:\s*(tensor|vector)<([^<>]*)>)')
DEF_RE = re.compile(r'^\s*(%[^\s=:,#]+)(?::\d+)?\s*=\s*(.*)$')
GENERIC_OP_RE = re.compile(r'^"([\w.$]+)"\s*\(([^)]*)\)')
PRETTY_OP_RE = re.compile(r'^([\w.$]+)\b([^{:<]*)')
VALUE_RE = re.compile(r'%[\w.$-]+')

FLOAT_TYPES = {'f16': '<f2', 'bf16': None, 'f32': '<f4', 'f64': '<f8'}

# Ops through which "this value must be positive" is pushed back to operands
# (how many leading operands; None: all).
POSITIVE_SEEDS = {'tosa.rsqrt': None, 'tosa.log': None,
                  'tosa.reciprocal': None, 'tosa.pow': 1}
POSITIVE_THROUGH = {
    'tosa.reshape': 1, 'tosa.transpose': 1, 'tosa.add': None, 'tosa.mul': 2,
    'tosa.cast': 1, 'tosa.identity': 1, 'tosa.tile': 1, 'tosa.slice': 1,
    'tosa.concat': None, 'tosa.reduce_sum': 1, 'tosa.reduce_max': 1,
    'tosa.reduce_min': 1, 'tosa.reduce_prod': 1, 'tosa.abs': 0,
}
# Ops that only move or relabel data: a weight stays a weight through them.
LAYOUT_OPS = {'tosa.reshape', 'tosa.transpose', 'tosa.cast', 'tosa.identity'}
WEIGHT_OPS = {'tosa.conv2d', 'tosa.conv3d', 'tosa.depthwise_conv2d',
              'tosa.transpose_conv2d', 'tosa.fully_connected', 'tosa.matmul'}
RESULT_TYPE_RE = re.compile(r'->\s*\(?\s*tensor<([^<>]*)>')


SHAPE_RE = re.compile(r'\s*((?:(?:\d+|\?)\s*x\s*)*)(.*?)\s*$', re.S)


def split_shape(body):
    """'1x?x3xf32' -> (['1', '?', '3'], 'f32'); 'index' stays whole."""
    m = SHAPE_RE.match(body)
    return [d.strip() for d in m.group(1).split('x')[:-1]], m.group(2)


def parse_type(kind, body, where):
    dims, elt = split_shape(body)
    if not re.fullmatch(r'[A-Za-z_][\w]*', elt):
        raise InputError(f'{where}: cannot handle type {kind}<{body}> '
                         '(encoding, scalable or unranked dims)')
    for d in dims:
        if not d.isdigit():
            raise InputError(f'{where}: cannot fill {kind}<{body}>: '
                             f'dimension {d!r} is not static')
    return [int(d) for d in dims], elt


def element_info(elt, where):
    """(kind, byte width or None for i1) of an element type."""
    if elt in FLOAT_TYPES:
        return 'float', {'f16': 2, 'bf16': 2, 'f32': 4, 'f64': 8}[elt]
    if elt == 'index':
        return 'int', 8
    m = re.fullmatch(r'(?:[su]?i)(\d+)', elt)
    if m:
        bits = int(m.group(1))
        if bits == 1:
            return 'bool', None
        if 1 < bits <= 64:
            return 'int', (bits + 7) // 8
    raise InputError(f'{where}: cannot fill element type {elt!r} '
                     '(handled: f16, bf16, f32, f64, i1..i64, si/ui, index)')


def make_bytes(dims, elt, seed, index, role, where):
    """Bytes of the data for one constant; role is (name, weight fan-in)."""
    kind, width = element_info(elt, where)
    n = int(np.prod(dims, dtype=np.int64)) if dims else 1
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, index])))
    if kind == 'float':
        name, fan_in = role
        if name in ('positive', 'scale'):
            vals = rng.random(n) + 0.5
        elif name == 'weight':
            vals = (2.0 * rng.random(n) - 1.0) * min(1.0, math.sqrt(3.0 / fan_in))
        else:
            fan_in = int(np.prod(dims[1:], dtype=np.int64)) if len(dims) > 1 else 1
            vals = (2.0 * rng.random(n) - 1.0) / math.sqrt(max(fan_in, 1))
        if elt == 'bf16':
            # Round to nearest even from f32 bits to the top 16 bits.
            b = vals.astype('<f4').view('<u4').astype(np.uint64)
            b = (b + 0x7FFF + ((b >> 16) & 1)) >> 16
            return b.astype('<u2').tobytes(), n
        return vals.astype(FLOAT_TYPES[elt]).tobytes(), n
    if kind == 'bool':
        bits = rng.integers(0, 2, n, dtype=np.uint8)
        return np.packbits(bits, bitorder='little').tobytes(), n
    vals = rng.integers(0, 8, n, dtype=np.int64)
    if width in (1, 2, 4, 8):
        return vals.astype(f'<i{width}').tobytes(), n
    return b''.join(int(v).to_bytes(width, 'little') for v in vals), n


def next_splat(line, pos, where):
    """The next splat float constant of more than one element at or after pos."""
    while True:
        s = SPLAT_RE.search(line, pos)
        if not s:
            return None
        dims, elt = parse_type(s.group(3), s.group(4), where)
        if elt in FLOAT_TYPES and (int(np.prod(dims, dtype=np.int64)) if dims else 1) > 1:
            return s
        pos = s.end()


def op_of(rest):
    """(op name, operand names) of the text after `%x = `."""
    m = GENERIC_OP_RE.match(rest)
    if m:
        return m.group(1), VALUE_RE.findall(m.group(2))
    m = PRETTY_OP_RE.match(rest)
    if m:
        return m.group(1), VALUE_RE.findall(m.group(2))
    return None, []


def numel(dims):
    return int(np.prod(dims, dtype=np.int64)) if dims else 1


def analyse(lines):
    """name -> (role, weight fan-in) for the SSA values of the file (see the
    header); values not in the result are 'other'."""
    defs, users, need = {}, {}, []
    for line in lines:
        m = DEF_RE.match(line)
        if not m:
            continue
        op, operands = op_of(m.group(2))
        if op is None:
            continue
        results = RESULT_TYPE_RE.findall(line)
        rdims = None
        if results:
            parts, _ = split_shape(results[-1])
            if all(p.isdigit() for p in parts):
                rdims = [int(p) for p in parts]
        defs[m.group(1)] = (op, operands)
        for i, v in enumerate(operands):
            users.setdefault(v, []).append((op, i, m.group(1), rdims))
        if op in POSITIVE_SEEDS:
            k = POSITIVE_SEEDS[op]
            need.extend(operands if k is None else operands[:k])
    roles = {}
    while need:
        v = need.pop()
        if v in roles:
            continue
        roles[v] = ('positive', None)
        if v in defs:
            op, operands = defs[v]
            if op in POSITIVE_THROUGH:
                k = POSITIVE_THROUGH[op]
                need.extend(operands if k is None else operands[:k])

    def uses(v, seen):
        """(op, operand index, result dims) of v's uses, looking through
        layout ops."""
        for op, i, res, rdims in users.get(v, []):
            if op in LAYOUT_OPS and i == 0 and res not in seen:
                seen.add(res)
                yield from uses(res, seen)
            else:
                yield op, i, rdims

    return roles, uses


def role_of(name, dims, analysis):
    roles, uses = analysis
    if name is None:
        return ('other', None)
    if name in roles:
        return roles[name]
    fan_in, scale = 0, False
    for op, i, rdims in uses(name, {name}):
        if op in WEIGHT_OPS and i == 1 and rdims:
            out = rdims[-1] * (rdims[0] if op == 'tosa.matmul' else 1)
            if out > 0 and numel(dims) % out == 0:
                fan_in = max(fan_in, numel(dims) // out)
        elif op == 'tosa.mul':
            scale = True
    if fan_in:
        return ('weight', fan_in)
    return ('scale', None) if scale else ('other', None)


def is_constant_op(rest):
    op, _ = op_of(rest)
    return op in ('tosa.const', 'arith.constant')


def fill(path, text, seed, fill_splats):
    lines = text.split('\n')
    analysis = analyse(lines)
    out = []
    index = 0
    stats = {'elided': 0, 'splats': 0, 'bytes': 0,
             'positive': 0, 'weight': 0, 'scale': 0, 'other': 0}
    for lineno, line in enumerate(lines, 1):
        where = f'{path}:{lineno}'
        m = DEF_RE.match(line)
        result = m.group(1) if m else None
        is_const = m is not None and is_constant_op(m.group(2))
        pieces = []
        pos = 0
        while True:
            e = ELIDED_RE.search(line, pos)
            s = next_splat(line, pos, where) if (fill_splats and is_const) else None
            if e and (not s or e.start() < s.start()):
                t = TYPE_AFTER_RE.match(line, e.end())
                if not t:
                    raise InputError(f'{where}: dense_resource<__elided__> is not '
                                     'followed by ": tensor<...>" or ": vector<...>"')
                kind, body, start, end = t.group(1), t.group(2), e.start(), t.end()
                stats['elided'] += 1
            elif s:
                kind, body, start, end = s.group(3), s.group(4), s.start(), s.end()
                stats['splats'] += 1
            else:
                break
            dims, elt = parse_type(kind, body, where)
            if numel(dims) == 0:
                raise InputError(f'{where}: cannot fill {kind}<{body}>: no elements')
            role = role_of(result, dims, analysis)
            data, n = make_bytes(dims, elt, seed, index, role, where)
            if elt in FLOAT_TYPES:
                stats[role[0]] += 1
            stats['bytes'] += len(data)
            index += 1
            pieces.append(line[pos:start])
            pieces.append(f'dense<"0x{data.hex().upper()}"> : {kind}<{body}>')
            pos = end
        pieces.append(line[pos:])
        out.append(''.join(pieces))
    text = '\n'.join(out)
    if 'dense_resource<__elided__>' in text:
        raise InputError(f'{path}: internal error: an elided resource was left')
    return text, stats


def write_atomically(path, text):
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.fill-elided.', suffix='.tmp', dir=d)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(fd, 0o666 & ~umask)
        with os.fdopen(fd, 'w') as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def main():
    ap = argparse.ArgumentParser(
        description='Replace dense_resource<__elided__> weights with seeded data.')
    ap.add_argument('input', help='MLIR file to read')
    ap.add_argument('-o', '--output', required=True, help='MLIR file to write')
    ap.add_argument('--seed', type=int, required=True, help='non-negative seed')
    ap.add_argument('--fill-splats', action='store_true',
                    help='also replace float splat constants of >1 element')
    args = ap.parse_args()
    if args.seed < 0:
        ap.error('--seed must be non-negative')
    try:
        with open(args.input) as f:
            text = f.read()
    except OSError as e:
        sys.exit(f'fill-elided.py: {e}')
    try:
        new, stats = fill(args.input, text, args.seed, args.fill_splats)
    except InputError as e:
        sys.exit(f'fill-elided.py: error: {e}')
    del text
    try:
        write_atomically(args.output, new)
    except OSError as e:
        sys.exit(f'fill-elided.py: error: cannot write {args.output}: {e}')
    print(f'fill-elided.py: {args.output}: filled {stats["elided"]} elided and '
          f'{stats["splats"]} splat constants, {stats["bytes"]} bytes, seed {args.seed}; '
          f'float roles: {stats["weight"]} weight, {stats["positive"]} positive, '
          f'{stats["scale"]} scale, {stats["other"]} other', file=sys.stderr)


if __name__ == '__main__':
    main()
