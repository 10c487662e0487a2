#!/usr/bin/python3
# run-upstream.py: runs a TOSA model with upstream MLIR 19 (mlir-opt-19 and
# mlir-cpu-runner-19 from Debian), as a check independent of Tessera.
#
#   run-upstream.py MODEL.mlir --entry NAME --inputs DIR --outputs DIR \
#       [--runs N] [--O3] [--keep DIR]
#     Reads DIR/arg0.npy, arg1.npy, ... (one per argument of @NAME, shapes and
#     dtypes must match its signature), builds a wrapper module (the model plus
#     a @main that holds the inputs as constants, calls @NAME N times and
#     prints every result of the last call), lowers it to the LLVM dialect with
#     mlir-opt-19, runs it with mlir-cpu-runner-19 and writes the results as
#     DIR/out0.npy, out1.npy, ...
#     Results are exact: @main bitcasts each float element to an integer of
#     the same width and prints those (printMemrefI32 / printMemrefI64), and
#     the bits are turned back into floats here.
#     Timing: @main reads rtclock() (wall clock, microsecond resolution) when
#     it starts and around every call, so JIT compile time (process start to
#     @main) and per-run time are told apart. One line on stderr:
#       upstream: runs=N mean_s=... min_s=... runs_per_s=... jit_s=... \
#                 opt_s=... total_s=...
#     runs_per_s is 1/mean_s.
#
#   run-upstream.py MODEL.mlir --entry NAME --make-inputs DIR [--seed S]
#     Writes DIR/arg<i>.npy for every argument of @NAME: seeded uniform [-1, 1)
#     for floats, [0, 8) for integers, 0/1 for i1 (numpy PCG64 seeded with
#     SeedSequence([S, i])).
#
# The pass pipeline is PIPELINE below; README.md says why each pass is there.
# Needs Debian's python3 with numpy (python3-numpy; scripts/setup.sh installs
# it); hence the shebang, see README.md.
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

try:
    import numpy as np
except ImportError:
    sys.exit("run-upstream.py: needs numpy: run it with Debian's /usr/bin/python3 "
             "(package python3-numpy, which scripts/setup.sh installs)")

PROG = 'run-upstream.py'
LIBDIR = '/usr/lib/llvm-19/lib'
RUNNER_LIBS = [f'{LIBDIR}/libmlir_runner_utils.so', f'{LIBDIR}/libmlir_c_runner_utils.so']

PIPELINE = ','.join([
    'func.func(' + ','.join([
        'tosa-optional-decompositions',
        'tosa-make-broadcastable',
        'tosa-to-linalg-named',
        'tosa-to-linalg',
        'tosa-to-arith',
        'tosa-to-tensor',
        'convert-elementwise-to-linalg',
        'linalg-fuse-elementwise-ops',
    ]) + ')',
    'one-shot-bufferize{bufferize-function-boundaries '
    'function-boundary-type-conversion=identity-layout-map}',
    'buffer-deallocation-pipeline',
    'convert-bufferization-to-memref',
    'func.func(convert-linalg-to-loops)',
    'lower-affine',
    'expand-strided-metadata',
    'convert-scf-to-cf',
    'convert-math-to-llvm',
    'convert-math-to-libm',
    'convert-arith-to-llvm',
    'convert-cf-to-llvm',
    'finalize-memref-to-llvm',
    'convert-func-to-llvm',
    'convert-index-to-llvm',
    'reconcile-unrealized-casts',
])
PIPELINE = f'builtin.module({PIPELINE})'

# MLIR element type -> (numpy dtype, integer type printed, print function,
# how @main turns an element into the printed integer).
ELEMENTS = {
    'f32': (np.float32, 'i32', 'printMemrefI32', 'bitcast'),
    'f64': (np.float64, 'i64', 'printMemrefI64', 'bitcast'),
    'f16': (np.float16, 'i32', 'printMemrefI32', 'bitcast16'),
    'i64': (np.int64, 'i64', 'printMemrefI64', 'same'),
    'i32': (np.int32, 'i32', 'printMemrefI32', 'same'),
    'i16': (np.int16, 'i32', 'printMemrefI32', 'extsi'),
    'i8': (np.int8, 'i32', 'printMemrefI32', 'extsi'),
    'i1': (np.bool_, 'i32', 'printMemrefI32', 'extui'),
}


class Failure(Exception):
    pass


# ---------------------------------------------------------------- signature

def scan_balanced(text, i):
    """Index just past the bracketed group that starts at text[i]."""
    pairs = {'(': ')', '[': ']', '{': '}', '<': '>'}
    stack = []
    n = len(text)
    while i < n:
        c = text[i]
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
        elif c == '-' and text.startswith('->', i):
            i += 1
        elif c in pairs:
            stack.append(pairs[c])
        elif c in ')]}>':
            if not stack or stack.pop() != c:
                raise Failure(f'unbalanced {c!r} in function signature')
            if not stack:
                return i + 1
        i += 1
    raise Failure('unterminated function signature')


def split_top(text):
    """Split at commas that are not inside brackets or strings."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            i += 1
            while i < len(text) and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
        elif c == '-' and text.startswith('->', i):
            i += 1
        elif c in '([{<':
            depth += 1
        elif c in ')]}>':
            depth -= 1
        elif c == ',' and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    if text[start:].strip():
        parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_tensor_type(t, what):
    m = re.fullmatch(r'tensor<([^<>]*)>', t.strip())
    if not m:
        raise Failure(f'{what}: type {t.strip()!r} is not a ranked tensor type '
                      'this script handles')
    sm = re.fullmatch(r'\s*((?:(?:\d+|\?)\s*x\s*)*)(.*?)\s*', m.group(1), re.S)
    elt = sm.group(2)
    if elt not in ELEMENTS:
        raise Failure(f'{what}: element type {elt!r} not handled '
                      f'(handled: {", ".join(ELEMENTS)})')
    dims = []
    for d in sm.group(1).split('x')[:-1]:
        if not d.strip().isdigit():
            raise Failure(f'{what}: dimension {d.strip()!r} of {t.strip()} is not static')
        dims.append(int(d))
    return {'text': t.strip(), 'shape': tuple(dims), 'elt': elt,
            'dtype': np.dtype(ELEMENTS[elt][0])}


def leading_type(text):
    """The type at the start of text (up to a balanced '<...>')."""
    text = text.strip()
    m = re.match(r'[\w.!]+', text)
    if not m:
        return text
    end = m.end()
    if end < len(text) and text[end] == '<':
        end = scan_balanced(text, end)
    return text[:end]


def entry_signature(text, entry):
    m = re.search(r'func\.func\s+(?:(?:public|private|nested)\s+)?@' + re.escape(entry)
                  + r'\s*\(', text)
    if not m:
        raise Failure(f'no func.func @{entry} in the model')
    open_paren = m.end() - 1
    close = scan_balanced(text, open_paren)
    args = []
    for k, a in enumerate(split_top(text[open_paren + 1:close - 1])):
        am = re.match(r'%[\w.$-]+\s*:\s*(.*)$', a, re.S)
        if not am:
            raise Failure(f'@{entry}: cannot parse argument {a!r}')
        args.append(parse_tensor_type(leading_type(am.group(1)), f'@{entry} argument {k}'))
    rest = text[close:close + 100000].lstrip()
    results = []
    if rest.startswith('->'):
        rest = rest[2:].lstrip()
        if rest.startswith('('):
            end = scan_balanced(rest, 0)
            items = split_top(rest[1:end - 1])
        else:
            items = [leading_type(rest)]
        for k, r in enumerate(items):
            results.append(parse_tensor_type(leading_type(r), f'@{entry} result {k}'))
    if not results:
        raise Failure(f'@{entry} returns nothing: there is nothing to compare')
    return args, results


# ---------------------------------------------------------------- wrapper

def hex_dense(arr, elt):
    if elt == 'i1':
        data = np.packbits(arr.astype(np.uint8).ravel(), bitorder='little').tobytes()
    else:
        data = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder('<')).tobytes()
    return f'dense<"0x{data.hex().upper()}">'


def identity_map(rank):
    dims = ', '.join(f'd{i}' for i in range(rank))
    return f'affine_map<({dims}) -> ({dims})>'


def result_printer(k, res, value, lines):
    """Lines that print result `value` (a tensor) as integers."""
    elt = res['elt']
    _, ielt, fn, how = ELEMENTS[elt]
    shape = 'x'.join(str(d) for d in res['shape'])
    ityp = f'tensor<{shape}x{ielt}>' if shape else f'tensor<{ielt}>'
    mtyp = f'memref<{shape}x{ielt}>' if shape else f'memref<{ielt}>'
    rank = len(res['shape'])
    body = {
        'bitcast': [f'%y = arith.bitcast %x : {elt} to {ielt}'],
        'bitcast16': ['%h = arith.bitcast %x : f16 to i16',
                      f'%y = arith.extui %h : i16 to {ielt}'],
        'same': [],
        'extsi': [f'%y = arith.extsi %x : {elt} to {ielt}'],
        'extui': [f'%y = arith.extui %x : {elt} to {ielt}'],
    }[how]
    yielded = '%x' if how == 'same' else '%y'
    iters = ', '.join(['"parallel"'] * rank)
    lines += [
        f'    %oe{k} = tensor.empty() : {ityp}',
        f'    %oi{k} = linalg.generic {{indexing_maps = [{identity_map(rank)}, '
        f'{identity_map(rank)}], iterator_types = [{iters}]}} '
        f'ins({value} : {res["text"]}) outs(%oe{k} : {ityp}) {{',
        f'    ^bb0(%x: {elt}, %o: {ielt}):',
        *[f'      {b}' for b in body],
        f'      linalg.yield {yielded} : {ielt}',
        f'    }} -> {ityp}',
        f'    %om{k} = bufferization.to_memref %oi{k} : {mtyp}',
        f'    %ou{k} = memref.cast %om{k} : {mtyp} to memref<*x{ielt}>',
        f'    func.call @{fn}(%ou{k}) : (memref<*x{ielt}>) -> ()',
    ]


def checksum_lines(results, call, acc_in, acc_out, lines, tag, ind):
    """Fold element 0 of every result of `call` into an i64, so that no run's
    results are dead and the optimiser cannot drop a call."""
    prev = acc_in
    for k, res in enumerate(results):
        elt = res['elt']
        idx = ', '.join(['%c0'] * len(res['shape']))
        v = f'{call}#{k}' if len(results) > 1 else call
        lines.append(f'{ind}%{tag}e{k} = tensor.extract {v}[{idx}] : {res["text"]}')
        src = f'%{tag}e{k}'
        if elt in ('f32', 'f64', 'f16'):
            width = {'f32': 32, 'f64': 64, 'f16': 16}[elt]
            lines.append(f'{ind}%{tag}b{k} = arith.bitcast {src} : {elt} to i{width}')
            src, elt = f'%{tag}b{k}', f'i{width}'
        if elt != 'i64':
            lines.append(f'{ind}%{tag}w{k} = arith.extui {src} : {elt} to i64')
            src = f'%{tag}w{k}'
        out = acc_out if k == len(results) - 1 else f'%{tag}x{k}'
        lines.append(f'{ind}{out} = arith.xori {prev}, {src} : i64')
        prev = out


def wrapper_module(model_text, entry, args, results, inputs, runs):
    for name in ('main', 'printMemrefI32', 'printMemrefI64', 'rtclock',
                 'printI64', 'printNewline'):
        if re.search(r'@' + name + r'\b', model_text):
            raise Failure(f'the model already has a symbol @{name}; '
                          'the wrapper needs that name')
    arg_types = ', '.join(a['text'] for a in args)
    res_types = ', '.join(r['text'] for r in results)
    fn_type = f'({arg_types}) -> ({res_types})'
    arg_vals = ', '.join(f'%in{i}' for i in range(len(args)))
    nstamps = 2 * runs + 1
    L = [
        '  func.func private @printMemrefI32(memref<*xi32>)',
        '  func.func private @printMemrefI64(memref<*xi64>)',
        '  func.func private @printI64(i64)',
        '  func.func private @printNewline()',
        '  func.func private @rtclock() -> f64',
        '  func.func @main() {',
        '    %c0 = arith.constant 0 : index',
        '    %c1 = arith.constant 1 : index',
        '    %ns = arith.constant 1.0e9 : f64',
        f'    %stamps = memref.alloc() : memref<{nstamps}xi64>',
        '    %t_start = func.call @rtclock() : () -> f64',
        '    %t_start_s = arith.mulf %t_start, %ns : f64',
        '    %t_start_i = arith.fptosi %t_start_s : f64 to i64',
        f'    memref.store %t_start_i, %stamps[%c0] : memref<{nstamps}xi64>',
    ]
    for i, (a, arr) in enumerate(zip(args, inputs)):
        L.append(f'    %in{i} = arith.constant {hex_dense(arr, a["elt"])} : {a["text"]}')
    L.append('    %acc0 = arith.constant 0 : i64')
    stamp = ('{ind}%{n} = func.call @rtclock() : () -> f64\n'
             '{ind}%{n}_s = arith.mulf %{n}, %ns : f64\n'
             '{ind}%{n}_i = arith.fptosi %{n}_s : f64 to i64\n'
             '{ind}memref.store %{n}_i, %stamps[{idx}] : memref<' + str(nstamps) + 'xi64>')
    acc = '%acc0'
    if runs > 1:
        L += [
            f'    %cloop = arith.constant {runs - 1} : index',
            '    %acc_loop = scf.for %i = %c0 to %cloop step %c1 '
            'iter_args(%acc_in = %acc0) -> (i64) {',
            '      %ia = arith.addi %i, %i : index',
            '      %ib = arith.addi %ia, %c1 : index',
            '      %ic = arith.addi %ib, %c1 : index',
            stamp.format(ind=' ' * 6, n='tl0', idx='%ib'),
            f'      %rl:{len(results)} = func.call @{entry}({arg_vals}) : {fn_type}',
            stamp.format(ind=' ' * 6, n='tl1', idx='%ic'),
        ]
        checksum_lines(results, '%rl', '%acc_in', '%acc_next', L, 'l', ' ' * 6)
        L += ['      scf.yield %acc_next : i64', '    }']
        acc = '%acc_loop'
    L += [
        f'    %ca = arith.constant {2 * runs - 1} : index',
        f'    %cb = arith.constant {2 * runs} : index',
        stamp.format(ind=' ' * 4, n='tf0', idx='%ca'),
        f'    %r:{len(results)} = func.call @{entry}({arg_vals}) : {fn_type}',
        stamp.format(ind=' ' * 4, n='tf1', idx='%cb'),
    ]
    checksum_lines(results, '%r', acc, '%acc_final', L, 'f', ' ' * 4)
    L += [
        '    func.call @printI64(%acc_final) : (i64) -> ()',
        '    func.call @printNewline() : () -> ()',
    ]
    for k, res in enumerate(results):
        result_printer(k, res, f'%r#{k}', L)
    L += [
        f'    %su = memref.cast %stamps : memref<{nstamps}xi64> to memref<*xi64>',
        '    func.call @printMemrefI64(%su) : (memref<*xi64>) -> ()',
        '    return',
        '  }',
    ]
    return '\n'.join(L) + '\n'


def write_wrapper(f, model_text, wrapper):
    """Write the model with `wrapper` inside its module: before the closing
    brace of an explicit top-level `module`, or at the end of an implicit one;
    either way before a trailing {-# dialect_resources #-} section. Writes
    slices, so a large model is not copied whole in memory."""
    r = re.search(r'^\{-#', model_text, re.M)
    end = r.start() if r else len(model_text)
    if not re.match(r'\s*(?://[^\n]*\n\s*)*module\b', model_text):
        f.write(model_text[:end])
        f.write('\n' + wrapper)
        f.write(model_text[end:])
        return
    # Last line that is neither blank nor a comment must hold the brace.
    while True:
        start = model_text.rfind('\n', 0, end) + 1
        line = model_text[start:end]
        code = line.split('//', 1)[0] if '"' not in line else line
        if code.strip():
            break
        if start == 0:
            raise Failure('cannot find the closing brace of the model\'s module')
        end = start - 1
    brace = code.rstrip()
    if not brace.endswith('}'):
        raise Failure('cannot find the closing brace of the model\'s module '
                      f'(its last line is {line.strip()!r})')
    pos = start + len(brace) - 1
    f.write(model_text[:pos])
    f.write('\n' + wrapper)
    f.write(model_text[pos:])


# ---------------------------------------------------------------- running

def tail(text, n=30):
    lines = text.rstrip().split('\n')
    return '\n'.join(lines[-n:])


def run_tool(cmd, what, stdout=subprocess.PIPE):
    try:
        p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        raise Failure(f'{cmd[0]} not found (Debian package mlir-19-tools)')
    if p.returncode != 0:
        how = (f'was killed by signal {-p.returncode}' if p.returncode < 0
               else f'failed with exit status {p.returncode}')
        raise Failure(f'{what} {how}:\n$ {" ".join(cmd)}\n'
                      f'--- last lines of its stderr:\n{tail(p.stderr)}\n'
                      '(--keep DIR keeps the modules it was given)')
    return p


def parse_memref_prints(text, count):
    """The integer data of the first `count` printMemref outputs in text."""
    blocks = text.split('Unranked Memref base@')[1:]
    if len(blocks) != count:
        raise Failure(f'expected {count} printed memrefs, found {len(blocks)}; '
                      f'runner output ends with:\n{tail(text, 10)}')
    out = []
    for b in blocks:
        _, sep, data = b.partition('data =')
        if not sep:
            raise Failure('cannot parse the runner\'s printed memref')
        out.append(np.array([int(x) for x in re.findall(r'-?\d+', data)], dtype=np.int64))
    return out


def to_result(ints, res, k):
    n = int(np.prod(res['shape'], dtype=np.int64))
    if ints.size != n:
        raise Failure(f'result {k}: runner printed {ints.size} elements, expected {n}')
    elt = res['elt']
    if elt == 'f32':
        arr = ints.astype(np.int32).view(np.float32)
    elif elt == 'f64':
        arr = ints.astype(np.int64).view(np.float64)
    elif elt == 'f16':
        arr = ints.astype(np.uint16).view(np.float16)
    else:
        arr = ints.astype(res['dtype'])
    return arr.reshape(res['shape'])


def load_inputs(dirname, args):
    arrs = []
    for i, a in enumerate(args):
        path = os.path.join(dirname, f'arg{i}.npy')
        if not os.path.exists(path):
            raise Failure(f'{path}: missing (the entry has {len(args)} arguments)')
        arr = np.load(path, allow_pickle=False)
        if arr.shape != a['shape'] or arr.dtype != a['dtype']:
            raise Failure(f'{path}: is {arr.dtype}{list(arr.shape)}, the entry\'s '
                          f'argument {i} is {a["text"]} ({a["dtype"]}{list(a["shape"])})')
        arrs.append(arr)
    extra = os.path.join(dirname, f'arg{len(args)}.npy')
    if os.path.exists(extra):
        raise Failure(f'{extra}: the entry has only {len(args)} arguments')
    return arrs


def make_inputs(dirname, args, seed):
    os.makedirs(dirname, exist_ok=True)
    for i, a in enumerate(args):
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([seed, i])))
        if a['elt'] in ('f32', 'f64', 'f16'):
            arr = (2.0 * rng.random(a['shape']) - 1.0).astype(a['dtype'])
        elif a['elt'] == 'i1':
            arr = rng.integers(0, 2, a['shape']).astype(np.bool_)
        else:
            arr = rng.integers(0, 8, a['shape']).astype(a['dtype'])
        path = os.path.join(dirname, f'arg{i}.npy')
        np.save(path, arr)
        print(f'{PROG}: wrote {path} {arr.dtype}{list(arr.shape)}', file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(
        description='Run a TOSA model with upstream MLIR 19 (mlir-opt-19, mlir-cpu-runner-19).')
    ap.add_argument('model', help='TOSA .mlir file with concrete weights')
    ap.add_argument('--entry', required=True, help='function to call')
    ap.add_argument('--inputs', help='directory with arg0.npy, arg1.npy, ...')
    ap.add_argument('--outputs', help='directory to write out0.npy, out1.npy, ... to')
    ap.add_argument('--runs', type=int, default=1, help='calls of the entry to time (default 1)')
    ap.add_argument('--O3', action='store_true', help='pass -O3 to mlir-cpu-runner (default: its default level)')
    ap.add_argument('--make-inputs', metavar='DIR',
                    help='write seeded inputs for the entry to DIR and stop')
    ap.add_argument('--seed', type=int, default=0, help='seed for --make-inputs (default 0)')
    ap.add_argument('--keep', metavar='DIR',
                    help='also copy the wrapper and lowered modules to DIR')
    ap.add_argument('--mlir-opt', default='mlir-opt-19')
    ap.add_argument('--mlir-cpu-runner', default='mlir-cpu-runner-19')
    args = ap.parse_args()
    try:
        with open(args.model) as f:
            model_text = f.read()
        sig_args, sig_results = entry_signature(model_text, args.entry)
        if args.make_inputs:
            make_inputs(args.make_inputs, sig_args, args.seed)
            return
        if 'dense_resource<__elided__>' in model_text:
            raise Failure(f'{args.model}: has elided weights; fill them first with '
                          'fill-elided.py')
        if not args.inputs or not args.outputs:
            ap.error('--inputs and --outputs are required (or --make-inputs)')
        if args.runs < 1:
            ap.error('--runs must be at least 1')
        inputs = load_inputs(args.inputs, sig_args)
        wrapper = wrapper_module(model_text, args.entry, sig_args, sig_results,
                                 inputs, args.runs)
        with tempfile.TemporaryDirectory(prefix='run-upstream.') as tmp:
            src = os.path.join(tmp, 'wrapper.mlir')
            llvm = os.path.join(tmp, 'wrapper.llvm.mlir')
            with open(src, 'w') as f:
                write_wrapper(f, model_text, wrapper)
            del model_text, wrapper
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(src, args.keep)
            t0 = time.time()
            run_tool([args.mlir_opt, src, f'--pass-pipeline={PIPELINE}', '-o', llvm],
                     'mlir-opt-19')
            t1 = time.time()
            if args.keep:
                shutil.copy(llvm, args.keep)
            cmd = [args.mlir_cpu_runner, llvm, '-e', 'main', '-entry-point-result=void',
                   '-shared-libs=' + ','.join(RUNNER_LIBS)]
            if args.O3:
                cmd.append('-O3')
            t2 = time.time()
            p = run_tool(cmd, 'mlir-cpu-runner-19')
            t3 = time.time()
        printed = parse_memref_prints(p.stdout, len(sig_results) + 1)
        stamps = printed[-1].astype(np.float64) * 1e-9
        if stamps.size != 2 * args.runs + 1:
            raise Failure('runner printed a wrong number of time stamps')
        per_run = stamps[2::2] - stamps[1::2]
        os.makedirs(args.outputs, exist_ok=True)
        for k, res in enumerate(sig_results):
            arr = to_result(printed[k], res, k)
            np.save(os.path.join(args.outputs, f'out{k}.npy'), arr)
        mean = float(per_run.mean())
        rate = 1.0 / mean if mean > 0 else float('inf')
        print(f'upstream: runs={args.runs} mean_s={mean:.6g} min_s={float(per_run.min()):.6g} '
              f'runs_per_s={rate:.6g} jit_s={float(stamps[0]) - t2:.3f} '
              f'opt_s={t1 - t0:.3f} total_s={t3 - t0:.3f}', file=sys.stderr)
    except Failure as e:
        sys.exit(f'{PROG}: error: {e}')
    except OSError as e:
        sys.exit(f'{PROG}: error: {e}')


if __name__ == '__main__':
    main()
