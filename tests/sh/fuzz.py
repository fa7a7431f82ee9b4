#!/usr/bin/env python3
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The largedir authors
"""
The case generator of t_fuzz.sh:

    python3 fuzz.py LARGEDIR TOP T SEED CASES

writes CASES cases, made from the seed SEED alone (and from what
LARGEDIR -h lists), as T/cases/NNNNN.sh, with the files they need under
T.  t_fuzz.sh sources each case and runs it; a case sets c_kind, c_what
(how it was made), c_cmd (the command, quoted for bash), c_out (the -o
directory whose outputs must be whole), c_dirs (directories that must be
left empty), c_conf (a config file to show when the case fails), c_fifo
and c_feed (a FIFO to feed while largedir runs), then the arguments
with 'set --'.

Kinds, with what makes each safe to run as root on a shared machine:

  parse     a command line mutated from a valid one, ending with the
            poison "--repeat=0 --repeat=0": the whole line is parsed and
            checked before anything is done, so the run stops with exit 2
            (or 0 for -h and -V) having touched nothing.  Two of them, as
            an option left without its value takes the first one.
  conf      -c FILE, FILE mutated from a valid config, then the poison:
            the file is read first, so its errors show; nothing is set up.
  run       a real run, tiny: valid options, then the safety options
            (-b 300ms -N 200 --start 10 -o T/out/N --label fN --scratch
            T/scratch T/d/N), which win as they come last; or the same
            with -c FILE, FILE saying 'path = T/d/N'.  Never --cold,
            --memory-limit, --events, nor a target to set up.
  suite     largedir suite with configs that all say 'path = T/...'.
  plot,page,table on directories in T: copies of tests/data fixtures,
            mutated, with text others wrote (quotes, bytes that are no
            UTF-8) and FIFOs and links under the names of results.

Cleanup runs only in the parse form: as root it sweeps the memory cgroups
of the whole machine.  Paths outside T appear only where largedir never
does more than stat or read them: '/', '/dev/null', paths that cannot
exist, '/tmp' and '/bin/true' as mkfs programs (looked up in PATH).
"""

import os
import random
import re
import subprocess
import sys

POISON = [b"--repeat=0", b"--repeat=0"]
SAFE = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
           b"0123456789_./=:,+-@%")
PHASES = [b"create", b"open", b"list", b"liststat", b"delete", b"rmrf"]
FSTYPES = [b"ext2", b"ext3", b"ext4", b"xfs", b"btrfs", b"tmpfs",
           b"reiserfs", b"vxfs", b"nfs", b"nfs4", b"f2fs", b"jfs"]
# src/target/target_conf.c, keys[]: what a config file may say besides options.
TARGET_KEYS = [b"label", b"description", b"fstype", b"mkfs",
               b"mount_options", b"image_size", b"path", b"source",
               b"device", b"wipe", b"kernel", b"uml"]
# Options that are no settings, or the suite's: a config may not set them.
NOT_IN_FILE = {"config", "cleanup", "help", "version", "total-budget"}
# Options a real run may take: nothing that drops the caches of the whole
# machine, makes cgroups or sets up targets.
NOT_REAL = {"cold", "memory-limit", "config", "cleanup", "help", "version",
            "events", "total-budget", "scratch"}
MAX_LINE = 4096  # src/settings/config_read.c


def u(s):
    return s.encode()


# Odd values any option may get: empty, blanks, option-like words, numbers
# at the edges of every integer type, units, unicode, format strings,
# shell syntax, path-like words.
GENERIC = [
    b"", b" ", b"  ", b"-", b"--", b"---", b"--x", b"-x", b"--budget",
    b"--repeat", b"-q", b"-h", b"=", b"==", b"#", b"#x", b"0", b"-0", b"+0",
    b"00", b"0x", b"0x0", b"0X1F", b"0x-1", b"-1", b"1e309", b"-1e309",
    b"nan", b"NaN", b"inf", b"-inf", b"18446744073709551615",
    b"18446744073709551616", b"9223372036854775807", b"9223372036854775808",
    b"-9223372036854775808", b"-9223372036854775809", b"4294967295",
    b"4294967296", b"2147483648", b"-2147483649",
    b"99999999999999999999999999999999999999999", b"1k", b"1K", b"1M",
    b"1G", b"1T", b"1P", b"1E", b"1Z", b"1Y", b"1ms", b"1s", b"1m", b"1h",
    b"1d", b"1w", b"1y", b"1.5", b"1,5", b".5", b"5.", b"1e3", b"0.0",
    b"-0.0", b"yes", b"no", b"none", b"NONE", b"true", b"null",
    u("1\u00b5s"), u("\u00fcn\u00efc\u00f8d\u00e9"), u("\u0661\u0662"),
    u("\uff11\uff12"), u("\u202eevil"), u("\U0001f600"), u("\ufeff1"),
    b"\xff\xfe", b"\xc3", b"\xed\xa0\x80", b"\x01\x02\x7f", b"\t1", b"1\t",
    b"1\r", b"\r", b"\n", b"a\nb", b"1\n", b"\x1b[31mred\x1b[0m",
    b"%s%s%s%n", b"%d%x", b"$(echo x)", b"`id`", b"'", b'"', b"\\",
    b"\\n", b"..", b".", b"/", b"//", b"a/b", b"./x", b"~", b"*", b"?",
    b"[", b"{}", b"a b", b";", b"|", b"&",
]
NEAR_KEYS = [b"mkfs_options", b"Budget", b"budget-", b"--budget",
             b"mount-options", b"image-size", b"max_files", b"fs_type",
             b"labels", b"pat", b"path.", b"budget\tpolicy", b"bud get",
             u("b\u00fcdget"), b"\xffkey", b"-", b"#not", b"x" * 65,
             b"x" * 300, b"[target]", b"export budget"]


MAX_ARG = 100000  # bytes in one argument (Linux takes up to 128 KiB)


def long_tok(prefix, unit, n):
    """'prefix', then 'unit' 'n' times, at most MAX_ARG bytes in all."""
    return prefix + unit * min(n, (MAX_ARG - len(prefix)) // len(unit))


def rep(unit, n):
    """Shell for 'unit' written 'n' times (bash and POSIX sh)."""
    fmt = ""
    for b in unit:
        if b == 0x25:
            fmt += "%%"
        elif 0x20 <= b < 0x7f and b not in b"'\\":
            fmt += chr(b)
        else:
            fmt += "\\%03o" % b
    return "\"$(printf '%s%%.0s' $(seq %d))\"" % (fmt, n)


def lit(piece):
    """'piece' quoted for bash: as it is, in '', or in $'' with escapes."""
    if piece and all(b in SAFE for b in piece):
        return piece.decode()
    if all(0x20 <= b < 0x7f for b in piece) and b"'" not in piece:
        return "'" + piece.decode() + "'"
    s = "$'"
    for b in piece:
        if b in b"'\\":
            s += "\\" + chr(b)
        elif 0x20 <= b < 0x7f:
            s += chr(b)
        else:
            s += "\\%03o" % b
    return s + "'"


def hq(tok):
    """'tok' as one word for bash, runs of a repeated unit shortened."""
    out, i, start = [], 0, 0
    while i < len(tok):
        for ulen in range(1, 9):
            unit = tok[i:i + ulen]
            k = 1
            while tok[i + k * ulen:i + (k + 1) * ulen] == unit:
                k += 1
            if k * ulen >= 64:
                if start < i:
                    out.append(lit(tok[start:i]))
                out.append(rep(unit, k))
                i += k * ulen
                start = i
                break
        else:
            i += 1
    if start < len(tok) or not out:
        out.append(lit(tok[start:]))
    return "".join(out)


def sq(data):
    """'data' (bytes) in single quotes for sh, exactly."""
    return b"'" + data.replace(b"'", b"'\\''") + b"'"


class Opt:
    def __init__(self, name, letter, meta, verbs):
        self.name = name
        self.letter = letter
        self.meta = meta
        self.verbs = verbs
        if meta is None or meta.startswith("["):
            self.kind = "flag"
        elif "|" in meta:
            self.kind = "choice"
            self.words = [u(w) for w in meta.split("|")]
        else:
            self.kind = {"duration": "dur", "count": "count",
                         "length": "count", "seed": "seed",
                         "factor": "real", "size": "size",
                         "label": "label", "path": "path", "dir": "path",
                         "file": "conf", "list": "events",
                         "phases": "phases"}.get(meta, "string")

    def __repr__(self):
        return "--" + self.name


def read_help(ld):
    """The options of 'ld -h': its lines, then the synopsis' others."""
    out = subprocess.run([ld, "-h"], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    opts, seen = [], set()
    for line in out.splitlines():
        m = re.match(r"^ {2}(?:-(\S), | {4})--([A-Za-z0-9-]+)"
                     r"(?: (?! )(\S+))?", line)
        if m and m.group(2) not in seen:
            seen.add(m.group(2))
            opts.append(Opt(m.group(2), m.group(1), m.group(3),
                            {"run", "suite"}))
    for m in re.finditer(r"\[--([a-z0-9-]+) ([a-z|]+)\]", out):
        if m.group(1) not in seen:
            seen.add(m.group(1))
            opts.append(Opt(m.group(1), None, m.group(2), {"suite"}))
    if len(opts) < 10:
        sys.exit("fuzz.py: cannot read the options of %s -h" % ld)
    return opts


class Gen:
    def __init__(self, ld, top, t, seed, cases):
        self.r = random.Random(seed)
        self.ld, self.top, self.cases = ld, top, cases
        self.t = u(t)
        self.opts = read_help(ld)
        self.byname = {o.name: o for o in self.opts}
        self.n = 0
        for d in ("cases", "cwd", "d", "out", "scratch", "res"):
            os.makedirs(os.path.join(t, d), exist_ok=True)
        with open(self.p(b"file"), "wb") as f:
            f.write(b"a regular file\n")
        # Configs other cases may name: each says path = a directory in T.
        self.good = []
        for i in range(3):
            self.good.append(self.write_real_conf(b"good%d" % i))
        self.bad = self.p(b"cases/bad.conf")
        with open(self.bad, "wb") as f:
            f.write(b"path = %s\nnosuchkey = 1\n" % self.p(b"d"))
        self.bases = []
        for d in (b"configs", b"tests/data/conf"):
            dd = os.path.join(u(top), d)
            for name in sorted(os.listdir(dd)) if os.path.isdir(dd) else []:
                if name.endswith(b".conf"):
                    with open(os.path.join(dd, name), "rb") as f:
                        self.bases.append(f.read())
        self.bases.append(b"path = %s\nlabel = base\n" % self.p(b"d"))
        self.bases.append(b"fstype = tmpfs\nimage_size = 64M\n")
        self.runs = []          # -o directories of real runs
        self.nspecial = 0

    # ===== Helpers =====

    def p(self, rel):
        return self.t + b"/" + rel

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, x):
        return self.r.random() < x

    def rand_bytes(self, n):
        """'n' random bytes, none NUL (an argument cannot hold one)."""
        return bytes(self.r.randint(1, 255) for _ in range(n))

    def rand_text(self, n):
        return bytes(self.r.randint(0x21, 0x7e) for _ in range(n))

    def new_dir(self):
        d = self.p(b"d/%04d" % self.n)
        os.makedirs(d, exist_ok=True)
        return d

    # ===== Values =====

    def garbage(self):
        x = self.r.random()
        if x < 0.6:
            return self.pick(GENERIC)
        if x < 0.75:
            return self.rand_bytes(self.r.randint(1, 40))
        if x < 0.85:
            return self.rand_text(self.r.randint(1, 40))
        if x < 0.95:
            return self.pick(GENERIC) + self.pick(GENERIC)
        return long_tok(b"", self.pick([b"x", b"9", b"\xff", b"ab",
                                        u("\u00e9")]),
                        self.pick([255, 256, 4096, 5000, MAX_ARG]))

    def valid(self, o):
        """A value 'o' accepts (or some other word for unknown types)."""
        k = o.kind
        if k == "flag":
            return None
        if k == "choice":
            return self.pick(o.words)
        return self.pick({
            "dur": [b"1s", b"300ms", b"5m", b"2h", b"1d", b"366d"],
            "count": [b"1", b"3", b"10", b"100", b"1000"],
            "seed": [b"0", b"42", b"0x2a", b"18446744073709551615"],
            "real": [b"1.5", b"2", b"1.01", b"100"],
            "size": [b"0", b"512", b"4k", b"64M", b"1G"],
            "label": [b"x", b"a.b-c_d", b"L" * 64],
            "path": [self.p(b"out/p%d" % self.n), b"rel", self.p(b"x")],
            "conf": [self.pick(self.good)],
            "events": [b"cycles", b"cycles,instructions"],
            "phases": [b"create,open,delete", b"list", b"open,liststat,rmrf"],
        }.get(k, [b"x"]))

    def fuzz(self, o):
        """A value for 'o', odd for its type half of the time."""
        if self.chance(0.35):
            return self.garbage()
        k = o.kind
        if k == "flag":
            return self.pick([b"yes", b"no", b"", b"maybe"])
        if k == "choice":
            w = self.pick(o.words)
            return self.pick([w, w.upper(), w[:-1], w + b" ", b" " + w,
                              w + b"x", b",".join(o.words),
                              b"|".join(o.words), w + b"\xff"])
        if k == "count" or k == "seed":
            return self.pick([
                b"1", b"2", b"1000", b"1001", b"0", b"-1", b"4294967295",
                b"4294967296", b"255", b"256", b"100", b"101", b" 5", b"5 ",
                b"+5", b"0x10", b"010", b"1e2", b"5k", b"1.0", u("\u0661"),
                u("\uff11"), b"", b"0x", b"0xg", b"0x0",
                b"0xFFFFFFFFFFFFFFFF", b"0x10000000000000000", b"00x1",
                b"-0x1", b"0X1f",
                b"%d" % self.r.randint(-10, 2 ** 70),
                b"%d" % self.r.randint(0, 300)])
        if k == "dur":
            return self.pick([
                b"300ms", b"1s", b"30m", b"1h", b"366d", b"367d", b"8784h",
                b"8785h", b"31622400s", b"31622401s", b"0", b"0s", b"0ms",
                b"1ns", b"1us", u("1\u00b5s"), b"-1s", b"1.5s", b".5s",
                b"1e3s", b"s", b"ms", b"1 s", b"1S", b"1sec", b"1h30m",
                b"99999999999999999999h", b"5", b"5x",
                b"%d%s" % (self.r.randint(0, 10 ** 6),
                           self.pick([b"ns", b"us", b"ms", b"s", b"m",
                                      b"h", b"d", b""]))])
        if k == "real":
            return self.pick([
                b"1.5", b"1", b"1.0", b"1.0000001", b"100", b"100.0",
                b"100.000001", b"2", b"1e1", b"1e-1", b"nan", b"NAN",
                b"inf", b"-inf", b"0x1.8p0", b"0x2", b"1,5", b"1.5.",
                b"1..5", b" 1.5", b"1.5 ", b"+1.5", b"-1.5", b"1e309",
                b"4.9e-324", b"%r" % (self.r.random() * 200)])
        if k == "size":
            return self.pick([
                b"0", b"1", b"512", b"4k", b"4K", b"4kB", b"4KiB", b"1M",
                b"1G", b"1024M", b"1025M", b"1T", b"1P", b"2P", b"16E",
                b"17E", b"64k", b"63k", b"65535", b"65536", b"1.5k",
                b"0.5M", b"-1", b"-1k", b"k", b"0x10", b"1e3", b" 1k",
                b"%d%s" % (self.r.randint(0, 2 ** 66),
                           self.pick([b"", b"k", b"M", b"G"]))])
        if k == "label":
            return self.pick([b"x", b"L" * 64, b"L" * 65, b".x", b"x.",
                              b"-x", b"_", b"a/b", b"a b", u("\u00e9t\u00e9"),
                              b"", b"..", b"a\tb"])
        if k == "path":
            return self.pick([self.p(b"out/f%d" % self.n), b"rel/dir", b"",
                              b"/", b"//", b".", self.p(b"file"),
                              self.p(b"file/below"), b"/nonexistent/dir",
                              long_tok(self.p(b""), b"d/", 2100),
                              long_tok(b"", b"n", 256), b"-o"])
        if k == "conf":
            return self.pick([self.pick(self.good), self.bad, b"/dev/null",
                              self.t, self.p(b"nonexistent.conf"), b"",
                              b"rel.conf", self.p(b"file"),
                              long_tok(b"", b"c", 5000)])
        if k == "events":
            return self.pick([b"cycles", b"instructions",
                              b"cycles,instructions", b"", b",",
                              b"cycles,,", b"nosuchevent", b"cycles:u",
                              b"CYCLES", long_tok(b"", b"cycles,", 500),
                              u("cycl\u00e9s")])
        if k == "phases":
            n = self.r.randint(0, 5)
            words = [self.pick(PHASES + [b"CREATE", b"opn", b"", b"all"])
                     for _ in range(n)]
            return self.pick([b",", b", ", b";", b",,"]).join(words) \
                if self.chance(0.3) else b",".join(words)
        return self.garbage()

    # ===== Command lines =====

    def spell(self, o, val):
        """'o' with 'val' as tokens, spelt one of the ways getopt reads."""
        name = u(o.name)
        if val is None:
            if o.letter and self.chance(0.4):
                return [b"-" + u(o.letter)]
            return [b"--" + name]
        x = self.r.random()
        if o.letter and x < 0.2:
            return [b"-" + u(o.letter), val]
        if o.letter and x < 0.3 and val:
            return [b"-" + u(o.letter) + val]
        if x < 0.45:
            return [b"--" + name + b"=" + val]
        if x < 0.5 and len(name) > 4:
            # An abbreviation, which GNU getopt takes when unambiguous.
            return [b"--" + name[:self.r.randint(2, len(name) - 1)], val]
        return [b"--" + name, val]

    def items(self, verb, k, value):
        """'k' options of 'verb' with 'value'(o) each, as token lists."""
        pool = [o for o in self.opts if verb in o.verbs and
                o.name not in ("help", "version", "cleanup", "config")]
        out = []
        for _ in range(k):
            o = self.pick(pool)
            out.append((o, self.spell(o, value(o))))
        return out

    def mutate(self, items, verb):
        """One random change to the command line 'items'."""
        r = self.r
        m = r.choices(range(17), weights=[8, 3, 2, 2, 2, 1.5, 2, 1.5, 0.7,
                                          1.5, 0.6, 0.4, 0.8, 0.6, 0.3, 0.5,
                                          0.5])[0]
        # -h and -V end the parsing: only change 10 adds them.
        opts = [o for o in self.opts if verb in o.verbs and
                o.name not in ("help", "version")]
        pos = r.randint(0, len(items))
        if m in (0, 1) or (m == 5 and not items):
            o = self.pick(opts)
            v = self.fuzz(o) if m == 0 else self.garbage()
            if o.kind == "flag" and self.chance(0.7):
                v = None
            if items and self.chance(0.6):
                pos = r.randrange(len(items))
                if items[pos][0] is not None:
                    o = items[pos][0]
                    v = None if o.kind == "flag" else (
                        self.fuzz(o) if m == 0 else self.garbage())
                items[pos] = (o, self.spell(o, v))
            else:
                items.insert(pos, (o, self.spell(o, v)))
            return "odd value for --%s" % o.name
        if m == 2:
            w = self.pick(NEAR_KEYS + [b"frobnicate", b"no-quiet", b"", b"-x",
                                       b"bud", b"s", b"quiet=yes",
                                       b"budget=", b"=x", self.rand_text(5)])
            t = [b"--" + w] + ([self.garbage()] if self.chance(0.5) else [])
            items.insert(pos, (None, t))
            return "unknown long option"
        if m == 3:
            c = self.pick([b"Z", b"x", b"1", b"?", b":", b"-", b"W", b"\xff",
                           b"H", b"v", b"C", b" "])
            items.insert(pos, (None, [b"-" + c]))
            return "unknown short option"
        if m == 4:
            lettered = [o for o in opts if o.letter]
            k = r.randint(2, 4)
            cl = b"-"
            tail = []
            for i in range(k):
                o = self.pick(lettered)
                cl += u(o.letter)
                if o.kind != "flag":
                    v = self.valid(o) if self.chance(0.6) else self.fuzz(o)
                    if self.chance(0.5) and v:
                        cl += v
                    else:
                        tail = [v]
                    break
            items.insert(pos, (None, [cl] + tail))
            return "short option cluster"
        if m == 5:
            pos = r.randrange(len(items))
            o, t = items[pos]
            if o is not None and o.kind != "flag" and len(t) == 2:
                items[pos] = (o, t[:1])
                return "--%s without its value" % o.name
            items.append((None, [self.pick([b"-b", b"--budget", b"-o",
                                            b"--phases", b"-c"])]))
            return "missing value at the end"
        if m == 6:
            o = self.pick(opts)
            for _ in range(r.randint(2, 5)):
                v = None if o.kind == "flag" else (
                    self.valid(o) if self.chance(0.5) else self.fuzz(o))
                items.insert(r.randint(0, len(items)), (o, self.spell(o, v)))
            return "--%s repeated" % o.name
        if m == 7:
            items.insert(pos, (None, [self.pick([
                self.new_dir(), b"", b"-", b"x", b"/", self.p(b"file"),
                b"suite", b"plot", b"--", self.garbage()])]))
            return "extra operand"
        if m == 8:
            items.insert(pos, (None, [b"--"]))
            return "'--' in the middle"
        if m == 9:
            o = self.pick([o for o in opts if o.kind == "flag"])
            v = self.pick([b"yes", b"no", b"", b"1", self.garbage()])
            items.insert(pos, (o, [b"--" + u(o.name) + b"=" + v]))
            return "flag --%s given a value" % o.name
        if m == 10:
            items.insert(pos, (None, [self.pick([b"-h", b"-V", b"--help",
                                                 b"--version", b"--he",
                                                 b"--vers", b"-qh"])]))
            return "-h or -V"
        if m == 11:
            items.insert(pos, (None, [self.pick([b"suite", b"plot", b"page",
                                                 b"cleanup", b"SUITE"])]))
            return "a verb in the middle"
        if m == 12:
            o = self.pick(opts)
            items.insert(pos, (o, [b"--" + u(o.name),
                                   long_tok(b"", self.pick([b"1", b"x",
                                                            b"\xfe", b"-"]),
                                            r.choice([4097, 20000,
                                                      MAX_ARG]))]))
            return "very long value for --%s" % o.name
        if m == 13:
            items.insert(pos, (None, [b""]))
            return "empty argument"
        if m == 14:
            flat = [t for _, ts in items for t in ts]
            r.shuffle(flat)
            items[:] = [(None, [t]) for t in flat]
            return "arguments shuffled"
        if m == 15:
            o = self.pick(opts)
            items.insert(pos, (o, [b"--" + u(o.name) + b"="]))
            return "--%s= (empty)" % o.name
        items.insert(pos, (None, [b"--cleanup"]))
        return "--cleanup mixed in"

    def cmd_parse(self):
        """A command line mutated from a valid one; the poison at its end."""
        r = self.r
        verb = r.choices(["run", "suite", "cleanup", "plot", "page"],
                         weights=[70, 12, 7, 5, 6])[0]
        d = self.new_dir()
        what = []
        if verb in ("plot", "page"):
            # argc must be 2 for them to act: give 0 or 2 or more.
            n = self.pick([0, 2, 2, 3])
            args = [self.pick([d, self.garbage(), b"-h", b"--", b"",
                               self.p(b"res")]) for _ in range(n)]
            return [u(verb)] + args, ["%s with %d arguments" % (verb, n)], d
        items = self.items("suite" if verb == "suite" else "run",
                           r.randint(0, 6), self.valid)
        if verb == "run":
            if self.chance(0.15):
                items.append((self.byname.get("config"),
                              [b"-c", self.pick(self.good)]))
            else:
                items.append((None, [d]))
        elif verb == "suite":
            for _ in range(r.randint(0, 3)):
                items.append((None, [self.pick(self.good + [
                    self.bad, self.p(b"nonexistent.conf"), self.t,
                    b"/dev/null"])]))
        else:
            items.insert(0, (None, [b"--scratch", self.p(b"scratch")]))
            if self.chance(0.6):
                items.append((None, [d]))
        for _ in range(r.choice([1, 1, 2, 2, 3, 4])):
            what.append(self.mutate(items, "suite" if verb == "suite"
                                    else "run"))
        toks = [t for _, ts in items for t in ts]
        if verb == "suite" and self.chance(0.4):
            # A config no suite takes, twice, in place of the poison: every
            # config is read before anything runs.
            poison = [self.bad, self.bad]
        else:
            poison = POISON
        if verb != "run":
            toks.insert(0, u(verb))
        return toks + poison, what, d

    def real_value(self, o):
        """A value a tiny real run may take for 'o' (None: leave it out)."""
        name = o.name
        t = {"budget": [b"1s", b"2h", b"366d", b"1500ms"],
             "budget-policy": [b"predict", b"classic"],
             "file-size": [b"0", b"1", b"512", b"4k", b"64k", b"0k"],
             "fsync": [b"none", b"file", b"dir", b"both"],
             "growth": [b"1.01", b"1.5", b"2", b"100", b"1.000001", b"3e1"],
             "label": [b"x", b"L" * 64, b"a.b", b"-x"],
             "max-files": [b"1", b"4294967295", b"50"],
             "name-len": [b"3", b"8", b"20", b"255"],
             "names": [b"fixed", b"maildir"],
             "output": [b"\n", b"a b", b"\xff\xfe", long_tok(b"", b"o", 200),
                        b"-x", u("\u00e9")],
             "phases": [b"create", b"create,open,delete", b"list,liststat",
                        b"rmrf", b"open,list,liststat,delete",
                        b"liststat,open", b"delete,open"],
             "quiet": [None],
             "repeat": [b"1", b"2", b"3"],
             "seed": [b"0", b"1", b"0xffffffffffffffff",
                      b"18446744073709551615", b"%d" % self.r.getrandbits(64)],
             "start": [b"1", b"10", b"4294967295"],
             "sync": [b"none", b"phase", b"round"],
             "warmup": [b"0", b"1", b"2"]}.get(name)
        return t

    def cmd_real(self):
        """A tiny real run: valid odd options, the safety options last."""
        d = self.new_dir()
        out = self.p(b"out/%04d" % self.n)
        items = []
        for _ in range(self.r.randint(0, 7)):
            o = self.pick(self.opts)
            vals = self.real_value(o) if o.name not in NOT_REAL else None
            if vals is None:
                continue
            items.append((o, self.spell(o, self.pick(vals))))
        if self.chance(0.3):
            # A cluster of a flag and a letter that takes a value.
            items.append((None, [b"-qr", b"2"] if self.chance(0.5)
                          else [b"-qg1.5"]))
        toks = [t for _, ts in items for t in ts]
        toks += [b"-b", b"300ms", b"-N", b"200", b"--start", b"10", b"-o",
                 out, b"--label", b"f%d" % self.n, b"--scratch",
                 self.p(b"scratch"), d]
        self.runs.append(out)
        what = ["real run with " + (" ".join(repr(o) for o, _ in items
                                             if o) or "the defaults")]
        return toks, what, d, out

    # ===== Config files =====

    def write_real_conf(self, name):
        """A config a real run may take: path = a directory in T."""
        d = self.p(b"d/" + name)
        os.makedirs(d, exist_ok=True)
        lines = [b"path = " + d, b"label = " + name]
        for _ in range(self.r.randint(0, 4)):
            o = self.pick(self.opts)
            if o.name in NOT_REAL or o.name in ("label", "output"):
                continue
            vals = self.real_value(o)
            if vals is None:
                continue
            v = self.pick(vals)
            lines.append(u(o.name) + b" = " + (b"yes" if v is None else v))
        if self.chance(0.3):
            lines.append(b"description = " + self.pick(
                [b"a = b # c", u("\u00e9\u00e8"), b"<b>&\"'", b"x" * 3000]))
        if self.chance(0.2):
            # With path, fstype only names it: nothing is set up.
            lines.append(b"fstype = " + self.pick(FSTYPES))
        dedup, seen = [], set()
        for ln in lines:
            k = ln.split(b"=")[0].strip()
            if k not in seen:
                seen.add(k)
                dedup.append(ln)
        self.r.shuffle(dedup)
        nl = self.pick([b"\n", b"\n", b"\r\n"])
        body = nl.join(self.pick([ln, b"  " + ln + b"\t", b"# c\n" + ln,
                                  ln.replace(b" = ", b"=")]) for ln in dedup)
        if self.chance(0.8):
            body += nl
        path = self.p(b"cases/" + name + b".conf")
        with open(path, "wb") as f:
            f.write(body)
        return path

    def conf_value(self, key):
        k = key.decode("latin-1")
        if k in self.byname and k not in TARGET_KEYS:
            return self.fuzz(self.byname[k])
        if self.chance(0.25):
            return self.garbage()
        return self.pick({
            "fstype": FSTYPES + [b"EXT4", b"zfs", b"ext4,xfs", b"nfs3"],
            "mkfs": [b"mkfs.ext4 -F", b"mkfs.ext4", b"mkfs.nonexistent",
                     b"/bin/true", b"/tmp", b"/", b"mkfs.ext4 -L 'x'",
                     b'mkfs.ext4 "x"', b"mkfs.ext4 \\", b"   ", b"true",
                     self.p(b"file"), b"\tmkfs.xfs\t-f"],
            "image_size": [b"16M", b"15M", b"16T", b"17T", b"1G", b"0",
                           b"-1", b"1E", b"99999999999999999999G", b"8g",
                           b"1.5G", b"", b"16777215", b"16777216"],
            "path": [self.new_dir(), b"relative", b"/", b"",
                     self.p(b"file"), b"/nonexistent", b"//"],
            "source": [b"127.0.0.1:/export", b"[::1]:/x", b"srv:", b"srv",
                       b":/x", b"nfs://srv/x", b"srv:/a b", b""],
            "device": [b"relative", b"", self.p(b"file"),
                       b"/nonexistent-device", self.new_dir()],
            "wipe": [b"yes", b"no", b"YES", b"1", b""],
            "kernel": [b"uml", b"host", b"UML", b""],
            "uml": [b"/nonexistent", b"relative", b"/usr/bin/linux.uml",
                    b"/a b", b""],
            "label": [b"x", b"L" * 65, b".x", b"a/b", b"", u("\u00e9")],
            "description": [b"a = b # c", b"a\rb", b"", u("\u00e9"),
                            b"x" * 4000],
            "mount_options": [b"noatime", b"a\rb", b"", b"ro,remount",
                              b"x" * 4000],
        }.get(k, [self.garbage()]))

    def conf_mutate(self, lines):
        """One random change to a config file ('lines', without '\\n')."""
        r = self.r
        m = r.choices(range(16), weights=[6, 3, 3, 2, 1.5, 2, 1.5, 2, 1, 1,
                                          1, 1.5, 1, 0.6, 1, 0.6])[0]
        keyed = [i for i, ln in enumerate(lines) if b"=" in ln and
                 not ln.lstrip().startswith(b"#")]
        pos = r.randint(0, len(lines))
        if m == 0 and keyed:
            i = self.pick(keyed)
            k = lines[i].split(b"=", 1)[0].strip()
            lines[i] = k + b" = " + self.conf_value(k)
            return "odd value for %s" % k.decode("latin-1")
        if m in (0, 1):
            o = self.pick(self.opts)
            k = self.pick([u(o.name)] * 3 + TARGET_KEYS)
            lines.insert(pos, k + b" = " + self.conf_value(k))
            return "key %s added" % k.decode("latin-1")
        if m == 2:
            lines.insert(pos, self.pick(NEAR_KEYS + [self.rand_text(8)]) +
                         b" = " + self.pick([b"1", b"", self.garbage()]))
            return "unknown key"
        if m == 3 and keyed:
            ln = lines[self.pick(keyed)]
            if self.chance(0.5):
                k = ln.split(b"=", 1)[0].strip()
                ln = k + b"=" + self.conf_value(k)
            lines.insert(pos, ln)
            return "key given twice"
        if m == 4 and lines:
            del lines[r.randrange(len(lines))]
            return "a line removed"
        if m in (3, 4, 5):
            lines.insert(pos, self.pick([
                b"budget", b"budget 5m", b"=", b"= 5m", b"==", b" = ",
                b"budget == 5m", b":", b"[section]", b"budget: 5m",
                b"export budget=5m", b"quiet", b"\\", b"'budget' = '5m'",
                b"budget = 5m # a comment", b"label = a#b",
                b"description = x = y # z", b"=label"]))
            return "malformed line"
        if m == 6:
            flag = self.pick([o for o in self.opts if o.kind == "flag"])
            lines.insert(pos, u(flag.name) + self.pick([
                b" = yes", b" = no", b" = 1", b" =", b"", b" = maybe"]))
            return "flag %s" % flag.name
        if m == 7:
            n = self.pick([MAX_LINE - 1, MAX_LINE, MAX_LINE + 1,
                           MAX_LINE + 2, 8192, 70000])
            kind = self.pick([b"description = ", b"# ", b"label = ",
                              b"budget = ", b""])
            lines.insert(pos, kind + b"x" * max(0, n - len(kind)))
            return "line of %d bytes" % n
        if m == 8:
            lines[:] = [ln + b"\r" for ln in lines]
            return "CRLF"
        if m == 9:
            lines[:] = [b"\r".join(lines)]
            return "CR only"
        if m == 10:
            lines.insert(pos, self.rand_bytes(r.randint(1, 200)))
            return "binary bytes"
        if m == 11:
            if lines:
                i = r.randrange(len(lines))
                lines[i] = lines[i][:r.randint(0, len(lines[i]))] + b"\0" + \
                    lines[i]
            return "a NUL byte"
        if m == 12:
            if lines:
                lines[0] = b"\xef\xbb\xbf" + lines[0]
            return "a byte order mark"
        if m == 13:
            o = self.pick(sorted(NOT_IN_FILE))
            lines.insert(pos, u(o) + b" = " + self.pick([b"yes", b"x",
                                                        self.pick(self.good)]))
            return "%s, which no file may set" % o
        if m == 14:
            if lines:
                i = r.randrange(len(lines))
                ws = self.pick([b"\t", b"\v", b"\f", b"   ", b"\xa0"])
                lines[i] = ws + lines[i].replace(b"=", ws + b"=" + ws, 1) + ws
            return "odd blanks"
        r.shuffle(lines)
        return "lines shuffled"

    def conf_parse(self):
        """A config file mutated from a valid one; the poison after it."""
        r = self.r
        path = self.p(b"cases/%04d.conf" % self.n)
        lines = self.pick(self.bases).split(b"\n")
        final = lines and lines[-1] == b""
        if final:
            lines.pop()
        what = [self.conf_mutate(lines)
                for _ in range(r.choice([1, 1, 2, 2, 3]))]
        body = b"\n".join(lines)
        x = r.random()
        if x < 0.03:
            body, what = b"", ["empty file"]
        elif x < 0.05:
            body, what = b"# only a comment\n\n   \n", ["comments only"]
        elif x < 0.06:
            body = b"# filler\n" * 200000 + body
            what.append("200000 lines of comments before")
        if final and self.chance(0.85):
            body += b"\n"
        elif not body.endswith(b"\n"):
            what.append("no newline at the end")
        with open(path, "wb") as f:
            f.write(body)
        return path, what

    def conf_special(self):
        """-c naming something that is not a plain config file."""
        c = self.nspecial % 8
        self.nspecial += 1
        fifo = feed = None
        if c == 0:
            path, what = self.t, "a directory"
        elif c == 1:
            path, what = b"/dev/null", "/dev/null"
        elif c == 2:
            path, what = self.p(b"cases/%04d.none" % self.n), "no such file"
        elif c == 3:
            path = fifo = self.p(b"cases/%04d.fifo" % self.n)
            os.mkfifo(fifo)
            feed = self.pick(self.good + [self.bad])
            what = "a FIFO fed %s" % os.path.basename(feed).decode()
        elif c == 4:
            path = self.p(b"cases/%04d.link" % self.n)
            os.symlink(self.pick(self.good), path)
            what = "a symbolic link to a config"
        elif c == 5:
            path = self.p(b"cases/%04d.loop" % self.n)
            os.symlink(os.path.basename(path), path)
            what = "a symbolic link to itself"
        elif c == 6:
            path, what = b"/dev/zero", "/dev/zero (NUL bytes, no newline)"
        else:
            path = self.p(b"cases/%04d.conf/" % self.n)
            what = "a path ending in '/'"
        return path, [what], fifo, feed

    # ===== Results for plot and page =====

    def results_dir(self):
        """A copy of a results fixture, mutated, in T/res."""
        r = self.r
        dst = self.p(b"res/%04d" % self.n)
        os.makedirs(dst)
        srcs = []
        for d in (b"tests/data/results", b"tests/data/page"):
            dd = os.path.join(u(self.top), d)
            if os.path.isdir(dd):
                srcs += [os.path.join(dd, x) for x in sorted(os.listdir(dd))]
        src = self.pick(srcs)
        outs = []
        for name in sorted(os.listdir(src)):
            with open(os.path.join(src, name), "rb") as f:
                data = f.read()
            if name.endswith(b".out") or name.endswith(b".csv"):
                outs.append(name)
            with open(os.path.join(dst, name), "wb") as f:
                f.write(data)
        what = ["%s, mutated:" % os.path.basename(src).decode()]
        for _ in range(r.randint(1, 3)):
            if not outs:
                break
            name = self.pick(outs)
            fp = os.path.join(dst, name)
            with open(fp, "rb") as f:
                data = f.read()
            lines = data.split(b"\n")
            m = r.randrange(9)
            if m == 0:
                data = data[:r.randint(0, len(data))]
                what.append("%s cut short" % name.decode())
            elif m == 1:
                i = r.randrange(len(lines))
                words = lines[i].split(b" ")
                j = r.randrange(len(words))
                words[j] = self.pick([b"NaN", b"-1", b"1e309", b"-inf", b"",
                                      b"18446744073709551616", b"x",
                                      b"0", b"9" * 400])
                lines[i] = b" ".join(words)
                data = b"\n".join(lines)
                what.append("%s: an odd field" % name.decode())
            elif m == 2:
                lines.insert(r.randint(0, len(lines)), self.rand_bytes(
                    r.randint(1, 300)))
                data = b"\n".join(lines)
                what.append("%s: a binary line" % name.decode())
            elif m == 3:
                data = b""
                what.append("%s empty" % name.decode())
            elif m == 4:
                i = r.randrange(len(lines))
                lines[i:i] = [lines[i]] * r.randint(1, 50)
                data = b"\n".join(lines)
                what.append("%s: a line repeated" % name.decode())
            elif m == 5:
                lines = [ln for ln in lines if not ln.startswith(b"#")] \
                    if self.chance(0.5) else \
                    [ln for ln in lines if ln.startswith(b"#")]
                data = b"\n".join(lines)
                what.append("%s: only data or only metadata" % name.decode())
            elif m == 6:
                data = data.replace(b" ", b"\t") if self.chance(0.5) else \
                    data.replace(b"\n", b"\r\n")
                what.append("%s: other separators" % name.decode())
            elif m == 7:
                data = b"# label: " + b"\xff" * 100 + b"\n" + \
                    b"#" * 10000 + b"\n" + data
                what.append("%s: odd metadata" % name.decode())
            else:
                key = self.pick([b"description", b"target_description",
                                 b"stop_reason", b"status", b"label"])
                text = self.pick([b"the ''quoted'' word", b"'", b"''''",
                                  b"\\' $(id) `id` system('id')",
                                  b"caf\xe9 \xff\xfe", b"\x01\x7f\x1b[31m",
                                  b"\xed\xa0\x80 \xc0\xaf", b"<svg>&amp;",
                                  self.rand_bytes(40).replace(b"\n", b" ")])
                data = b"# " + key + b": " + text + b"\n" + data
                what.append("%s: %s written by someone else" %
                            (name.decode(), key.decode()))
            with open(fp, "wb") as f:
                f.write(data)
        if self.chance(0.5):
            what += self.plant(dst, outs)
        return dst, what

    def plant(self, dst, outs):
        """FIFOs and links under the names of results, in 'dst'."""
        r = self.r
        labels = [o[:-4] for o in outs if o.endswith(b".out")] or [b"x"]
        what = []
        for _ in range(r.randint(1, 3)):
            name = self.pick([self.pick(labels) + b".summary",
                              self.pick(labels) + b".failed",
                              b"zz.out", b"zz.summary", b"zz.failed",
                              b"compare.out", b"compare.summary",
                              b"index.html", b"rates-create.svg"])
            path = os.path.join(dst, name)
            if os.path.lexists(path):
                os.unlink(path)
            to = self.pick([None, b"/dev/zero", b"/etc/passwd", b"/",
                            b"nonexistent", name])
            if to is None:
                os.mkfifo(path)
                what.append("a FIFO %s" % name.decode())
            else:
                os.symlink(to, path)
                what.append("%s a link to %s" % (name.decode(),
                                                  to.decode()))
        return what

    # ===== The cases =====

    def write(self, kind, args, what, out=b"", dirs=(), conf=b"",
              fifo=b"", feed=b"", cpath=b""):
        cmd = "largedir " + " ".join(hq(a) for a in args)
        with open(self.p(b"cases/%05d.sh" % self.n), "wb") as f:
            f.write(b"# case %d: %s\n" % (self.n, u(kind)))
            f.write(b"c_n=%d\n" % self.n)
            f.write(b"c_kind=%s\n" % u(kind))
            f.write(b"c_what=%s\n" % sq(u("; ".join(what))))
            f.write(b"c_cmd=%s\n" % sq(u(cmd)))
            f.write(b"c_out=%s\n" % sq(out or b""))
            f.write(b"c_dirs=%s\n" % sq(b" ".join(dirs)))
            f.write(b"c_conf=%s\n" % sq(conf or b""))
            f.write(b"c_cpath=%s\n" % sq(cpath or b""))
            f.write(b"c_fifo=%s\n" % sq(fifo or b""))
            f.write(b"c_feed=%s\n" % sq(feed or b""))
            f.write(b"set -- " + b" ".join(sq(a) for a in args) + b"\n")
        self.n += 1

    def generate(self):
        r = self.r
        n_conf = max(1, self.cases // 4)
        n_cmd = self.cases - n_conf
        n_real = max(1, n_cmd // 12)
        n_suite = max(1, self.cases // 200)
        n_res = max(3, self.cases // 10)
        n_confrun = max(1, n_conf // 12)
        n_special = max(7, n_conf // 15)
        plan = (["parse"] * (n_cmd - n_real - n_suite - n_res) +
                ["run"] * n_real +
                ["conf"] * (n_conf - n_confrun - n_special) +
                ["confrun"] * n_confrun + ["special"] * n_special)
        r.shuffle(plan)
        plan += ["suite"] * n_suite + ["res"] * n_res
        for kind in plan:
            if kind == "parse":
                args, what, d = self.cmd_parse()
                self.write("parse", args, what,
                           out=self.p(b"out/%04d" % self.n), dirs=[d])
            elif kind == "run":
                args, what, d, out = self.cmd_real()
                self.write("run", args, what, out=out, dirs=[d])
            elif kind in ("conf", "special"):
                fifo = feed = None
                if kind == "conf":
                    path, what = self.conf_parse()
                else:
                    path, what, fifo, feed = self.conf_special()
                out = self.p(b"out/%04d" % self.n)
                args = [b"-c", path] + POISON + [b"-o", out]
                self.write("conf", args, what, out=out, conf=feed or path,
                           fifo=fifo, feed=feed, cpath=path)
            elif kind == "confrun":
                name = b"c%04d" % self.n
                path = self.write_real_conf(name)
                out = self.p(b"out/%04d" % self.n)
                args = [b"-c", path, b"-b", b"300ms", b"-N", b"200",
                        b"--start", b"10", b"-o", out, b"--scratch",
                        self.p(b"scratch")]
                if self.chance(0.5):
                    args += [b"--label", b"f%d" % self.n]
                self.runs.append(out)
                self.write("run", args, ["real run of a config"], out=out,
                           dirs=[self.p(b"d/" + name)], conf=path)
            elif kind == "suite":
                k = r.randint(1, 2)
                confs = [self.write_real_conf(b"s%04d-%d" % (self.n, i))
                         for i in range(k)]
                out = self.p(b"out/%04d" % self.n)
                items = []
                for _ in range(r.randint(0, 3)):
                    o = self.pick(self.opts)
                    vals = self.real_value(o) if o.name not in NOT_REAL \
                        and o.name != "label" else None
                    if vals is not None:
                        items += self.spell(o, self.pick(vals))
                if self.chance(0.3):
                    items += [b"--total-budget", self.pick([b"200ms",
                                                            b"600ms"])]
                args = [b"suite"] + items + [
                    b"-b", b"300ms", b"-N", b"200", b"--start", b"10", b"-o",
                    out, b"--scratch", self.p(b"scratch")] + confs
                self.write("suite", args, ["suite of %d configs" % k],
                           out=out, dirs=[self.p(b"d/s%04d-%d" % (self.n, i))
                                          for i in range(k)])
            else:
                verb = self.pick([b"page", b"page", b"page", b"plot",
                                  b"table"])
                out = b""
                x = r.random()
                if x < 0.6:
                    dst, what = self.results_dir()
                elif x < 0.8 and self.runs:
                    # Which the graphs and the page must leave whole.
                    dst, what = self.pick(self.runs), ["a real run's outputs"]
                    out = dst
                else:
                    dst = self.pick([self.new_dir(), self.p(b"file"),
                                     self.p(b"nonexistent"), b"", b"-h",
                                     b"--"])
                    what = ["an odd directory"]
                self.write(verb.decode(), [verb, dst], what, out=out)


def main():
    if len(sys.argv) != 6:
        sys.exit("usage: fuzz.py LARGEDIR TOP T SEED CASES")
    ld, top, t, seed, cases = sys.argv[1:]
    Gen(ld, top, t, int(seed), int(cases)).generate()


if __name__ == "__main__":
    main()
