#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
"""The figures the READMEs and NOTES quote about published results,
checked against the data they name, or written from it.

A quoted figure is marked where it stands:

    xfs <!--fig results/20261203-maildir/xfs.out deliver_per_s@max-->2,310<!--/fig--> mails/s

and the marker says where it comes from: a LABEL.out of a published run
and an expression over its rows, each round's value being the median of
its repetitions (warm-up rounds left out):

    maxn            the largest n the run measured
    meta.KEY        the number the run's metadata keep under KEY
                    (meta.knee_open, meta.elapsed_s)
    COL@max         COL at the largest n
    COL@N           COL at n = N
    min(COL)        the smallest of the rounds' values
    max(COL)        the largest

where COL is a column, or a column per file: COL/n.  A counts.tsv of
bench/nfs-tools.sh (the real tools' NFS calls beside largedir's) takes

    OPTIONS:N:PHASE:PROC            the tool's calls (nordirplus:1000:
                                    liststat:LOOKUP: ls -lU's LOOKUPs)
    OPTIONS:N:PHASE:PROC:largedir   largedir's, in the same guest

and a procedure neither sent is 0.  Options after the
expression: sig=K rounds to K significant digits, dec=D prints D digits
after the point (0 by default), mul=X multiplies first (sectors to KB:
mul=0.512).  A German file (NAME.de.md) writes 1.234,5, the others
1,234.5.

    figures.py check FILE...    exit 1 and say which figure differs
    figures.py update FILE...   write every figure from its data
"""
import math
import os
import re
import statistics
import sys

MARK = re.compile(r'<!--fig (\S+) (\S+?)((?: \w+=[0-9.]+)*)-->(.*?)<!--/fig-->')


def rounds(path, cache={}):
    """{n: {column: median over the repetitions}} of a LABEL.out."""
    if path in cache:
        return cache[path]
    cols, rows = None, {}
    with open(path, encoding='utf-8') as fp:
        for line in fp:
            if line.startswith('#'):
                continue
            words = line.split()
            if cols is None:
                cols = words
                continue
            if not words or words == cols:
                continue
            row = dict(zip(cols, words))
            if row.get('warmup', '0') not in ('0', '0.0'):
                continue
            rows.setdefault(float(row['n']), []).append(row)
    out = {}
    for n, reps in rows.items():
        med = {}
        for c in cols:
            v = [float(r[c]) for r in reps if r[c] not in ('nan', '-')]
            if v:
                med[c] = statistics.median(v)
        out[n] = med
    cache[path] = out
    return out


def meta(path):
    """{key: value} of the '# key: value' lines of a LABEL.out."""
    out = {}
    with open(path, encoding='utf-8') as fp:
        for line in fp:
            if line.startswith('# ') and ': ' in line:
                k, v = line[2:].rstrip('\n').split(': ', 1)
                out.setdefault(k, v)
    return out


def tools(path, expr):
    """A count of the counts.tsv 'path' (see the top)."""
    keys = expr.split(':')
    if len(keys) not in (4, 5) or (len(keys) == 5 and
                                   keys[4] != 'largedir'):
        raise ValueError(f'bad expression {expr}')
    col = 'largedir_calls' if len(keys) == 5 else 'tool_calls'
    with open(path, encoding='utf-8') as fp:
        head = fp.readline().rstrip('\n').split('\t')
        seen = False
        for line in fp:
            row = dict(zip(head, line.rstrip('\n').split('\t')))
            if [row['options'], row['n'], row['phase']] != keys[:3]:
                continue
            seen = True
            if row['proc'] == keys[3]:
                return float(row[col])
    if not seen:
        raise ValueError(f'{path}: no {":".join(keys[:3])}')
    return 0.0


def value(top, path, expr):
    """The value of 'expr' over the rounds of 'path' (under 'top')."""
    if path.endswith('.tsv'):
        return tools(os.path.join(top, path), expr)
    if expr.startswith('meta.'):
        kv = meta(os.path.join(top, path))
        try:
            return float(kv[expr[5:]])
        except (KeyError, ValueError):
            raise ValueError(f'{path}: no number under {expr[5:]}')
    rs = rounds(os.path.join(top, path))
    if not rs:
        raise ValueError(f'{path}: no rounds')
    if expr == 'maxn':
        return max(rs)

    def col(c, n):
        per = c.endswith('/n')
        name = c[:-2] if per else c
        if name not in rs[n]:
            raise ValueError(f'{path}: no column {name} at n = {n:g}')
        return rs[n][name] / n if per else rs[n][name]

    m = re.fullmatch(r'(min|max)\((\S+)\)', expr)
    if m:
        c = m.group(2)
        name = c[:-2] if c.endswith('/n') else c
        vals = [col(c, n) for n in rs if name in rs[n]]
        if not vals:
            raise ValueError(f'{path}: no column {name}')
        return min(vals) if m.group(1) == 'min' else max(vals)
    m = re.fullmatch(r'(\S+)@(max|[0-9]+)', expr)
    if m:
        n = max(rs) if m.group(2) == 'max' else float(m.group(2))
        if n not in rs:
            raise ValueError(f'{path}: no round of n = {n:g}')
        return col(m.group(1), n)
    raise ValueError(f'bad expression {expr}')


def spell(v, opts, german):
    """'v' as the text shows it."""
    if 'mul' in opts:
        v *= float(opts['mul'])
    if 'sig' in opts and v != 0:
        k = int(opts['sig'])
        v = round(v, k - 1 - int(math.floor(math.log10(abs(v)))))
    dec = int(opts.get('dec', 0))
    s = f'{v:,.{dec}f}'
    if german:
        s = s.replace(',', '\0').replace('.', ',').replace('\0', '.')
    return s


def run(mode, files, top):
    bad = 0
    for f in files:
        text = open(f, encoding='utf-8').read()
        german = f.endswith('.de.md')

        def one(m):
            nonlocal bad
            opts = dict(o.split('=') for o in m.group(3).split())
            try:
                want = spell(value(top, m.group(1), m.group(2)), opts,
                             german)
            except (OSError, ValueError) as e:
                print(f'{f}: {e}', file=sys.stderr)
                bad += 1
                return m.group(0)
            if mode == 'check' and m.group(4) != want:
                print(f'{f}: {m.group(1)} {m.group(2)}: says '
                      f'{m.group(4)}, the data {want}', file=sys.stderr)
                bad += 1
            return m.group(0).replace(f'-->{m.group(4)}<!--/fig-->',
                                      f'-->{want}<!--/fig-->')

        new = MARK.sub(one, text)
        if mode == 'update' and new != text:
            open(f, 'w', encoding='utf-8').write(new)
    return bad


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('check', 'update'):
        sys.exit('usage: figures.py check|update FILE...')
    top = os.environ.get('TOP', '.')
    bad = run(sys.argv[1], sys.argv[2:], top)
    n = sum(len(MARK.findall(open(f, encoding='utf-8').read()))
            for f in sys.argv[2:])
    print(f'figures: {n} quoted, {bad} wrong')
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
