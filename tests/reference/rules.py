#!/usr/bin/env python3
"""Independent reference rules for Nine Men's Morris and Ultimate tic-tac-toe.

Written from docs/rules.md and docs/cli.md only (and SPEC.md section 12 for the Morris rule
variants), to cross-check the Rust engine's `replay` and `perft` commands. Standard library
only.

    python3 rules.py replay morris [--max-turns N] [--rules R] < record
    python3 rules.py replay meta < record
    python3 rules.py perft morris DEPTH [--max-turns N] [--rules R]
    python3 rules.py perft meta DEPTH

`cli(argv, stdin_bytes) -> (exit_code, stdout, stderr)` is the single code
path used both by `main()` and by crosscheck.py.
"""

import json
import re
import sys

# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------

# ASCII whitespace as docs/rules.md defines it: space, \t, \n, \r, \x0c (not \x0b).
_WS = ' \t\r\n\x0c'
_WS_SPLIT = re.compile(r'[ \t\r\n\x0c]+')


def record_text(data):
    return data.decode('utf-8', errors='replace')


def record_headers(data):
    """Bytes of a record -> [(line number from 1, name, value)] of its header lines.

    docs/cli.md: a header line, trimmed of separators at both ends, starts with '[' and ends
    with ']'; inside, the name runs to the first space and the value is the rest trimmed of
    separators, without its surrounding double quotes when it has both."""
    out = []
    for i, line in enumerate(record_text(data).split('\n')):
        t = line.strip(_WS)
        if not (t.startswith('[') and t.endswith(']')) or len(t) < 2:
            continue
        inner = t[1:-1]
        if ' ' not in inner:
            continue
        name, value = inner.split(' ', 1)
        value = value.strip(_WS)
        if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
            value = value[1:-1]
        out.append((i + 1, name, value))
    return out


def record_tokens(data):
    """Bytes of a record -> list of tokens (header lines skipped)."""
    text = data.decode('utf-8', errors='replace')
    tokens = []
    for line in text.split('\n'):
        if line.lstrip(_WS).startswith('['):
            continue
        tokens.extend(t for t in _WS_SPLIT.split(line) if t)
    return tokens


def _dumps(obj):
    return json.dumps(obj, separators=(',', ':'))


# ---------------------------------------------------------------------------
# Nine Men's Morris
# ---------------------------------------------------------------------------

EMPTY = 2
POINT_NAMES = ['a7', 'd7', 'g7', 'g4', 'g1', 'd1', 'a1', 'a4',
               'b6', 'd6', 'f6', 'f4', 'f2', 'd2', 'b2', 'b4',
               'c5', 'd5', 'e5', 'e4', 'e3', 'd3', 'c3', 'c4']
POINT_INDEX = {n: i for i, n in enumerate(POINT_NAMES)}

LINKS = []
for _s in (0, 8, 16):
    for _i in range(8):
        LINKS.append((_s + _i, _s + (_i + 1) % 8))
LINKS += [(1, 9), (9, 17), (3, 11), (11, 19), (5, 13), (13, 21), (7, 15), (15, 23)]
ADJ = [[] for _ in range(24)]
for _a, _b in LINKS:
    ADJ[_a].append(_b)
    ADJ[_b].append(_a)
ADJ = [tuple(sorted(a)) for a in ADJ]

MILLS = []
for _s in (0, 8, 16):
    MILLS += [(_s, _s + 1, _s + 2), (_s + 2, _s + 3, _s + 4),
              (_s + 4, _s + 5, _s + 6), (_s + 6, _s + 7, _s)]
MILLS += [(1, 9, 17), (3, 11, 19), (5, 13, 21), (7, 15, 23)]
MILLS_OF = [tuple(m for m in MILLS if p in m) for p in range(24)]

assert len(LINKS) == 32 and len(MILLS) == 16
assert all(len(m) == 2 for m in MILLS_OF)

# SPEC 12, diagonals=1: four diagonal lines a7-b6-c5, g7-f6-e5, g1-f2-e3, a1-b2-c3
# (8 more links, 4 more mills).
DIAGONAL_LINES = [(0, 8, 16), (2, 10, 18), (4, 12, 20), (6, 14, 22)]
LINKS_D = LINKS + [l for a, b, c in DIAGONAL_LINES for l in ((a, b), (b, c))]
ADJ_D = [[] for _ in range(24)]
for _a, _b in LINKS_D:
    ADJ_D[_a].append(_b)
    ADJ_D[_b].append(_a)
ADJ_D = [tuple(sorted(a)) for a in ADJ_D]
MILLS_D = MILLS + DIAGONAL_LINES
MILLS_OF_D = [tuple(m for m in MILLS_D if p in m) for p in range(24)]
assert len(LINKS_D) == 40 and len(MILLS_D) == 20
assert sorted(len(m) for m in MILLS_OF_D) == [2] * 12 + [3] * 12

# ---------------------------------------------------------------------------
# Rule sets (SPEC 12)
# ---------------------------------------------------------------------------

RULE_KEYS = ('pieces', 'diagonals', 'flying', 'lasker', 'quiet')
RULE_VALUES = {'pieces': range(9, 13), 'diagonals': range(0, 2), 'flying': range(0, 2),
               'lasker': range(0, 2), 'quiet': range(0, 501)}
NINE = (9, 0, 1, 0, 0)
NAMED_RULES = {'nine': NINE, 'noflying': (9, 0, 0, 0, 0), 'lasker': (10, 0, 1, 1, 0),
               'twelve': (12, 1, 1, 0, 0), 'gur9': (9, 0, 1, 0, 50)}
RULES_MAX_LEN = 200


class BadRules(Exception):
    pass


def parse_rules(text):
    """A rule string -> tuple (pieces, diagonals, flying, lasker, quiet), or raise BadRules.

    A name, a comma-separated list of key=value, or a name followed by such a list that
    overrides it; keys lower case, no spaces, each at most once; values in decimal without
    leading zeros. Longer than RULES_MAX_LEN bytes: refused."""
    if len(text.encode('utf-8', 'surrogateescape')) > RULES_MAX_LEN:
        raise BadRules('too long')
    if text == '':
        raise BadRules('empty')
    items = text.split(',')
    values = dict(zip(RULE_KEYS, NINE))
    seen = set()
    for i, item in enumerate(items):
        if '=' not in item:
            if i == 0 and item in NAMED_RULES:
                values = dict(zip(RULE_KEYS, NAMED_RULES[item]))
                continue
            raise BadRules('%r is no rule set name here' % item)
        key, value = item.split('=', 1)
        if key not in RULE_KEYS:
            raise BadRules('unknown key %r' % key)
        if key in seen:
            raise BadRules('%s twice' % key)
        seen.add(key)
        if not re.fullmatch(r'0|[1-9][0-9]*', value) or int(value) not in RULE_VALUES[key]:
            raise BadRules('bad value %r for %s' % (value, key))
        values[key] = int(value)
    return tuple(values[k] for k in RULE_KEYS)


def canonical_rules(r):
    return ','.join('%s=%d' % kv for kv in zip(RULE_KEYS, r))

# <pt>[-<pt>][x<pt>], strict lowercase; names are checked against POINT_INDEX.
_MORRIS_TOKEN = re.compile(r'([a-g][1-7])(?:-([a-g][1-7]))?(?:x([a-g][1-7]))?')

DEFAULT_MAX_TURNS = 100


class IllegalTurn(Exception):
    pass


class Morris:
    """Mutable Morris state; a turn is (frm|None, to, cap|None).

    `rules` is a tuple (pieces, diagonals, flying, lasker, quiet), see parse_rules."""

    __slots__ = ('board', 'reserves', 'to_move', 'turns', 'max_turns',
                 'over', 'winner', 'reason', 'counts', 'rules', 'adj', 'mills_of',
                 'quiet_turns')

    def __init__(self, max_turns=DEFAULT_MAX_TURNS, rules=NINE):
        self.rules = rules
        self.adj = ADJ_D if rules[1] else ADJ
        self.mills_of = MILLS_OF_D if rules[1] else MILLS_OF
        self.board = [EMPTY] * 24
        self.reserves = [rules[0], rules[0]]
        self.to_move = 0
        self.turns = 0
        self.max_turns = max_turns
        self.over = False
        self.winner = None
        self.reason = None
        self.quiet_turns = 0   # completed turns since the last capture
        self.counts = {self.key(): 1}

    def key(self):
        return bytes(self.board) + bytes((self.reserves[0], self.reserves[1], self.to_move))

    def copy(self):
        c = Morris.__new__(Morris)
        c.board = self.board[:]
        c.reserves = self.reserves[:]
        c.to_move = self.to_move
        c.turns = self.turns
        c.max_turns = self.max_turns
        c.over = self.over
        c.winner = self.winner
        c.reason = self.reason
        c.counts = dict(self.counts)
        c.rules = self.rules
        c.adj = self.adj
        c.mills_of = self.mills_of
        c.quiet_turns = self.quiet_turns
        return c

    # -- queries ------------------------------------------------------------

    def placing(self):
        return self.reserves[self.to_move] > 0

    def may_move(self, p):
        """A side moves once its reserve is empty; under Lasker also while it places."""
        return self.reserves[p] == 0 or self.rules[3] == 1

    def flying(self, p):
        return (self.rules[2] == 1 and self.reserves[0] == 0 and self.reserves[1] == 0
                and self.board.count(p) == 3)

    def has_move(self, p):
        """Has player p a legal move (a slide or, when flying, a flight)?"""
        b = self.board
        if self.flying(p):
            return EMPTY in b
        for q in range(24):
            if b[q] == p:
                for r in self.adj[q]:
                    if b[r] == EMPTY:
                        return True
        return False

    def has_turn(self, p):
        """Has player p any legal turn: a placement, or a move when allowed to move?"""
        if self.reserves[p] > 0 and EMPTY in self.board:
            return True
        return self.may_move(p) and self.has_move(p)

    def steps(self):
        """(frm, to) pairs of the mover, before captures."""
        p = self.to_move
        b = self.board
        empties = [q for q in range(24) if b[q] == EMPTY]
        out = []
        if self.reserves[p] > 0:
            out = [(None, to) for to in empties]
        if not self.may_move(p):
            return out
        fly = self.flying(p)
        for frm in range(24):
            if b[frm] != p:
                continue
            if fly:
                out.extend((frm, to) for to in empties)
            else:
                out.extend((frm, to) for to in self.adj[frm] if b[to] == EMPTY)
        return out

    def closes_mill(self, to, p):
        b = self.board
        for m in self.mills_of[to]:
            if b[m[0]] == p and b[m[1]] == p and b[m[2]] == p:
                return True
        return False

    def in_mill(self, q):
        return self.closes_mill(q, self.board[q])

    def capturable(self, opp):
        """Opponent pieces that may be captured (protection rule applied)."""
        pieces = [q for q in range(24) if self.board[q] == opp]
        free = [q for q in pieces if not self.in_mill(q)]
        return free if free else pieces

    def legal_turns(self):
        if self.over:
            return []
        p = self.to_move
        opp = 1 - p
        b = self.board
        out = []
        for frm, to in self.steps():
            if frm is not None:
                b[frm] = EMPTY
            b[to] = p
            if self.closes_mill(to, p) and opp in b:
                out.extend((frm, to, c) for c in self.capturable(opp))
            else:
                out.append((frm, to, None))
            b[to] = EMPTY
            if frm is not None:
                b[frm] = p
        return out

    # -- checking a token ---------------------------------------------------

    def parse(self, token):
        """Token -> legal turn, or raise IllegalTurn."""
        m = _MORRIS_TOKEN.fullmatch(token)
        if not m:
            raise IllegalTurn('does not parse')
        names = m.groups()
        for n in names:
            if n is not None and n not in POINT_INDEX:
                raise IllegalTurn('no point named %s' % n)
        if self.over:
            raise IllegalTurn('the game is over')
        if names[1] is None:
            frm, to = None, POINT_INDEX[names[0]]
        else:
            frm, to = POINT_INDEX[names[0]], POINT_INDEX[names[1]]
        cap = None if names[2] is None else POINT_INDEX[names[2]]
        p = self.to_move
        opp = 1 - p
        b = self.board
        if frm is None:
            if self.reserves[p] == 0:
                raise IllegalTurn('placement is over: move a piece')
        else:
            if not self.may_move(p):
                raise IllegalTurn('still placing: cannot move yet')
            if b[frm] != p:
                raise IllegalTurn('no piece of the mover on the start point')
        if b[to] != EMPTY:
            raise IllegalTurn('destination is occupied')
        if frm is not None and to not in self.adj[frm] and not self.flying(p):
            raise IllegalTurn('destination is not adjacent')
        # Look at the board after the step.
        if frm is not None:
            b[frm] = EMPTY
        b[to] = p
        try:
            mill = self.closes_mill(to, p) and opp in b
            if mill:
                if cap is None:
                    raise IllegalTurn('a mill closes: a capture is required')
                if cap not in self.capturable(opp):
                    raise IllegalTurn('that point cannot be captured')
            elif cap is not None:
                raise IllegalTurn('no mill closes: no capture allowed')
        finally:
            b[to] = EMPTY
            if frm is not None:
                b[frm] = p
        return (frm, to, cap)

    # -- playing ------------------------------------------------------------

    def play(self, turn):
        """Apply a legal turn; returns undo data."""
        frm, to, cap = turn
        p = self.to_move
        opp = 1 - p
        b = self.board
        undo = (turn, self.over, self.winner, self.reason, self.quiet_turns)
        if frm is None:
            self.reserves[p] -= 1
        else:
            b[frm] = EMPTY
        b[to] = p
        if cap is not None:
            b[cap] = EMPTY
        self.turns += 1
        self.quiet_turns = 0 if cap is not None else self.quiet_turns + 1
        self.to_move = opp
        key = self.key()
        n = self.counts.get(key, 0) + 1
        self.counts[key] = n
        quiet = self.rules[4]
        # SPEC 12: pieces, full, blocked, repetition, quiet, limit.
        if self.reserves[opp] + b.count(opp) < 3:
            self.over, self.winner, self.reason = True, p, 'pieces'
        elif EMPTY not in b:
            self.over, self.winner, self.reason = True, None, 'full'
        elif not self.has_turn(opp):
            self.over, self.winner, self.reason = True, p, 'blocked'
        elif n >= 3:
            self.over, self.winner, self.reason = True, None, 'repetition'
        elif quiet > 0 and self.quiet_turns >= quiet:
            self.over, self.winner, self.reason = True, None, 'quiet'
        elif self.turns >= self.max_turns:
            self.over, self.winner, self.reason = True, None, 'limit'
        return undo

    def undo(self, undo):
        (frm, to, cap), self.over, self.winner, self.reason, self.quiet_turns = undo
        key = self.key()
        n = self.counts[key] - 1
        if n:
            self.counts[key] = n
        else:
            del self.counts[key]
        opp = self.to_move
        p = 1 - opp
        self.to_move = p
        self.turns -= 1
        b = self.board
        if cap is not None:
            b[cap] = opp
        b[to] = EMPTY
        if frm is None:
            self.reserves[p] += 1
        else:
            b[frm] = p

    def to_json(self):
        obj = {'game': 'morris'}
        if self.rules != NINE:
            obj['rules'] = canonical_rules(self.rules)
        obj.update({
            'board': ''.join('BR.'[c] for c in self.board),
            'reserves': list(self.reserves),
            'to_move': self.to_move,
            'turns': self.turns,
            'phase': 'over' if self.over else 'play',
            'winner': self.winner,
            'reason': self.reason,
        })
        return _dumps(obj)


def morris_token(turn):
    frm, to, cap = turn
    s = POINT_NAMES[to] if frm is None else POINT_NAMES[frm] + '-' + POINT_NAMES[to]
    if cap is not None:
        s += 'x' + POINT_NAMES[cap]
    return s


def perft_morris(depth, max_turns=DEFAULT_MAX_TURNS, rules=NINE, start=None):
    """Perft from the start, or from `start` (a Morris state, played on and restored)."""
    st = Morris(max_turns, rules) if start is None else start

    def rec(d):
        if d == 0:
            return 1
        if st.over:
            return 0
        turns = st.legal_turns()
        if d == 1:
            return len(turns)
        total = 0
        for t in turns:
            u = st.play(t)
            total += rec(d - 1)
            st.undo(u)
        return total

    return rec(depth)


# ---------------------------------------------------------------------------
# Ultimate tic-tac-toe ("meta")
# ---------------------------------------------------------------------------

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8),
         (0, 3, 6), (1, 4, 7), (2, 5, 8),
         (0, 4, 8), (2, 4, 6)]
OPEN, DRAWN = -1, 2
_META_TOKEN = re.compile(r'[a-i][1-9]')


def meta_cell_name(index):
    b, c = divmod(index, 9)
    row = (b // 3) * 3 + c // 3          # 0 = top
    col = (b % 3) * 3 + c % 3            # 0 = file a
    return 'abcdefghi'[col] + str(9 - row)


META_NAMES = [meta_cell_name(i) for i in range(81)]
META_INDEX = {n: i for i, n in enumerate(META_NAMES)}
assert META_INDEX['a9'] == 0 and META_INDEX['e5'] == 40 and META_INDEX['i1'] == 80
assert len(META_INDEX) == 81


class Meta:
    __slots__ = ('cells', 'results', 'to_move', 'required', 'moves',
                 'over', 'winner', 'line')

    def __init__(self):
        self.cells = [EMPTY] * 81
        self.results = [OPEN] * 9
        self.to_move = 0
        self.required = None
        self.moves = 0
        self.over = False
        self.winner = None
        self.line = None

    def legal_moves(self):
        if self.over:
            return []
        boards = [self.required] if self.required is not None else \
            [b for b in range(9) if self.results[b] == OPEN]
        cells = self.cells
        return [b * 9 + c for b in boards for c in range(9) if cells[b * 9 + c] == EMPTY]

    def parse(self, token):
        if not _META_TOKEN.fullmatch(token):
            raise IllegalTurn('does not parse')
        i = META_INDEX[token]
        if self.over:
            raise IllegalTurn('the game is over')
        if self.cells[i] != EMPTY:
            raise IllegalTurn('cell is occupied')
        b = i // 9
        if self.results[b] != OPEN:
            raise IllegalTurn('that small board is closed')
        if self.required is not None and b != self.required:
            raise IllegalTurn('must play in board %d' % self.required)
        return i

    def play(self, i):
        undo = (i, self.results[i // 9], self.required, self.over, self.winner, self.line)
        p = self.to_move
        b, c = divmod(i, 9)
        cells = self.cells
        cells[i] = p
        base = b * 9
        for l in LINES:
            if cells[base + l[0]] == p and cells[base + l[1]] == p and cells[base + l[2]] == p:
                self.results[b] = p
                break
        else:
            if EMPTY not in cells[base:base + 9]:
                self.results[b] = DRAWN
        r = self.results
        for l in LINES:
            if r[l[0]] == p and r[l[1]] == p and r[l[2]] == p:
                self.over, self.winner, self.line = True, p, list(l)
                break
        else:
            if OPEN not in r:
                self.over = True
        self.to_move = 1 - p
        self.moves += 1
        self.required = None if self.over or r[c] != OPEN else c
        return undo

    def undo(self, undo):
        i, res, self.required, self.over, self.winner, self.line = undo
        self.cells[i] = EMPTY
        self.results[i // 9] = res
        self.to_move = 1 - self.to_move
        self.moves -= 1

    def to_json(self):
        return _dumps({
            'game': 'meta',
            'cells': ''.join('XO.'[c] for c in self.cells),
            'results': ''.join({OPEN: '.', 0: 'X', 1: 'O', DRAWN: 'D'}[r] for r in self.results),
            'to_move': self.to_move,
            'required': self.required,
            'moves': self.moves,
            'over': self.over,
            'winner': self.winner,
            'line': self.line,
        })


def meta_token(i):
    return META_NAMES[i]


def perft_meta(depth):
    st = Meta()

    def rec(d):
        if d == 0:
            return 1
        if st.over:
            return 0
        moves = st.legal_moves()
        if d == 1:
            return len(moves)
        total = 0
        for m in moves:
            u = st.play(m)
            total += rec(d - 1)
            st.undo(u)
        return total

    return rec(depth)


# ---------------------------------------------------------------------------
# Replay and command line
# ---------------------------------------------------------------------------

def new_state(game, max_turns=None, rules=NINE):
    if game == 'morris':
        return Morris(DEFAULT_MAX_TURNS if max_turns is None else max_turns, rules)
    return Meta()


def _header_error(line, message):
    return 1, _dumps({'error': 'header', 'line': line, 'message': message})


def replay(game, data, max_turns=None, rules=None):
    """-> (exit_code, one JSON line without newline).

    Morris reads the Rules header (docs/cli.md): absent means the rules given (`rules`, a
    tuple), else nine; a second one, a malformed one, or one that differs from the rules given
    is refused with a header error on its line. Other headers are skipped."""
    if game == 'morris':
        written = None
        for line, name, value in record_headers(data):
            if name != 'Rules':
                continue
            if written is not None:
                return _header_error(line, 'a second Rules header')
            try:
                written = (parse_rules(value), line)
            except BadRules as e:
                return _header_error(line, 'bad rules: %s' % e)
        if written is not None and rules is not None and written[0] != rules:
            return _header_error(written[1], 'the rules differ from --rules')
        rules = written[0] if written is not None else (rules or NINE)
    st = new_state(game, max_turns, rules)
    for k, tok in enumerate(record_tokens(data)):
        try:
            turn = st.parse(tok)
        except IllegalTurn as e:
            return 1, _dumps({'error': 'illegal', 'index': k, 'token': tok, 'message': str(e)})
        st.play(turn)
    return 0, st.to_json()


USAGE = """usage:
  rules.py replay morris [--max-turns N] [--rules R] < record
  rules.py replay meta < record
  rules.py perft morris DEPTH [--max-turns N] [--rules R]
  rules.py perft meta DEPTH
"""

_INT = re.compile(r'[+-]?[0-9]+')


def cli(argv, data=b''):
    """-> (exit_code, stdout_text, stderr_text). `data` is stdin (bytes)."""
    def usage(msg):
        return 2, '', 'error: %s\n%s' % (msg, USAGE)

    if len(argv) < 2 or argv[0] not in ('replay', 'perft') or argv[1] not in ('morris', 'meta'):
        return usage('expected "replay|perft morris|meta"')
    cmd, game, rest = argv[0], argv[1], list(argv[2:])
    max_turns = None
    rules = None
    positional = []
    i = 0
    while i < len(rest):
        a = rest[i]
        if a == '--max-turns':
            if game != 'morris':
                return usage('--max-turns is only for morris')
            if max_turns is not None:
                return usage('--max-turns given twice')
            if i + 1 >= len(rest):
                return usage('--max-turns needs a value')
            v = rest[i + 1]
            if not _INT.fullmatch(v) or not 1 <= int(v) <= 500:
                return usage('--max-turns must be an integer in 1..500')
            max_turns = int(v)
            i += 2
        elif a == '--rules':
            if game != 'morris':
                return usage('--rules is only for morris')
            if rules is not None:
                return usage('--rules given twice')
            if i + 1 >= len(rest):
                return usage('--rules needs a value')
            try:
                rules = parse_rules(rest[i + 1])
            except BadRules as e:
                return usage('--rules: %s' % e)
            i += 2
        elif a.startswith('-') and a != '-' and not a.lstrip('-').isdigit():
            return usage('unknown option %r' % a)
        else:
            positional.append(a)
            i += 1
    if cmd == 'replay':
        if positional:
            return usage('replay takes no positional argument')
        code, line = replay(game, data, max_turns, rules)
        return code, line + '\n', ''
    if len(positional) != 1 or not re.fullmatch(r'[0-9]+', positional[0]):
        return usage('perft needs one non-negative integer DEPTH')
    depth = int(positional[0])
    if game == 'morris':
        n = perft_morris(depth, DEFAULT_MAX_TURNS if max_turns is None else max_turns,
                         rules or NINE)
    else:
        n = perft_meta(depth)
    return 0, '%d\n' % n, ''


def main():
    argv = sys.argv[1:]
    data = b''
    if argv[:1] == ['replay']:
        data = sys.stdin.buffer.read()
    code, out, err = cli(argv, data)
    sys.stdout.write(out)
    sys.stderr.write(err)
    sys.stdout.flush()
    return code


if __name__ == '__main__':
    sys.exit(main())
