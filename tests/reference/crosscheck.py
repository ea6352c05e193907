#!/usr/bin/env python3
"""Cross-check the engine binary's `replay` (and a little `perft`) against rules.py.

    python3 tests/reference/crosscheck.py --engine target/release/engine [--count N]
        [--rules-count M] [--seed S]

Generates N records per game (and M Morris records under other rule sets than the
default, given by --rules, by a [Rules "..."] header, or both, agreeing or not) with a
seeded generator, runs `ENGINE replay ...`
on each (one process per record, several in parallel) and the reference's
`rules.cli` in-process (the same function the rules.py command line runs), and
compares: exit codes must match; on success stdout must be byte-identical (one
JSON line); on error the "error", "index" and "token" fields must match.
A few command-line checks (usage errors, perft at small depths, perft of every named
rule set at depths 1-5) are added.
Prints up to 10 mismatches, the distribution of outcomes, and finally
`N passed, M failed`. Exit 0 if all passed, 1 if any failed, 2 on usage errors
or when the engine cannot be run.
"""

import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules  # noqa: E402
from rules import EMPTY, META_NAMES, POINT_NAMES, Meta, Morris, morris_token  # noqa: E402

ENGINE_TIMEOUT = 20  # seconds per process

# ---------------------------------------------------------------------------
# Rendering a token list as a record (whitespace, headers, line ends)
# ---------------------------------------------------------------------------

HEADERS = ['[Event "x"]', '[Site "Paris"]', ' [Date "2026.10.26"]', '\t[Round "1"]',
           '[White "a b"] d6 a7', '[', '[]', '[Unclosed', '[Event "é ü"]', '  \x0c[Result "*"]',
           '[Event "x"] [Site "y"]', '[d6 a7]', '\r[Event "cr"]']
SEPARATORS = [' ', ' ', ' ', '  ', '\t', '\n', '\r\n', ' \t ', '\n\n', '\x0c', ' \r\n\r\n ',
              '\t\t', '\r', '\n \n\t']


def render(tokens, rng, style=None):
    """Token list (str or bytes) -> record bytes."""
    if style is None:
        style = rng.choice(['plain', 'plain', 'lines', 'messy', 'messy'])
    parts = []
    if style == 'plain':
        if rng.random() < 0.2:
            parts.append('[Event "x"]\n')
        for i, t in enumerate(tokens):
            if i:
                parts.append(' ')
            parts.append(t)
        if rng.random() < 0.5:
            parts.append('\n')
    elif style == 'lines':
        per = rng.choice([1, 2, 2, 5])
        eol = rng.choice(['\n', '\r\n'])
        if rng.random() < 0.7:
            parts.append('[Event "x"]' + eol + '[Site "y"]' + eol + eol)
        for i, t in enumerate(tokens):
            if i % per == 0 and i:
                parts.append(eol)
            elif i:
                parts.append(' ')
            parts.append(t)
        parts.append(eol)
    else:
        if rng.random() < 0.5:
            parts.append(rng.choice(['', ' ', '\n', '\r\n', '\t\n', '\x0c']))
        for i, t in enumerate(tokens):
            if i:
                parts.append(rng.choice(SEPARATORS))
            if rng.random() < 0.08:
                eol = rng.choice(['\n', '\r\n'])
                parts.append(eol + rng.choice(HEADERS) + eol)
            parts.append(t)
        parts.append(rng.choice(['', '\n', '\r\n', ' ', '\n\n']))
    return b''.join(p if isinstance(p, bytes) else p.encode('utf-8') for p in parts)


# ---------------------------------------------------------------------------
# Morris game generation
# ---------------------------------------------------------------------------

def mobility(st, p):
    """Number of (piece, adjacent empty point) pairs of player p."""
    b = st.board
    n = 0
    for q in range(24):
        if b[q] == p:
            for r in st.adj[q]:
                if b[r] == EMPTY:
                    n += 1
    return n


def pol_random(st, rng, hist):
    return rng.choice(st.legal_turns())


def pol_capture(st, rng, hist):
    turns = st.legal_turns()
    caps = [t for t in turns if t[2] is not None]
    if caps and rng.random() < 0.9:
        return rng.choice(caps)
    return rng.choice(turns)


def pol_shuffle(st, rng, hist):
    """After placement, move the piece moved last turn back where it came from."""
    turns = st.legal_turns()
    if st.may_move(st.to_move) and len(hist) >= 2 and hist[-2][0] is not None:
        last = hist[-2]
        back = [t for t in turns if t[0] == last[1] and t[1] == last[0]]
        if back and rng.random() < 0.92:
            return rng.choice(back)
    quiet = [t for t in turns if t[2] is None]
    return rng.choice(quiet if quiet and rng.random() < 0.9 else turns)


def pol_block(st, rng, hist):
    """Greedy: minimise the opponent's mobility (win immediately if possible)."""
    turns = st.legal_turns()
    if rng.random() < 0.1:
        return rng.choice(turns)
    best, best_score = [], None
    p = st.to_move
    for t in turns:
        u = st.play(t)
        if st.over and st.winner == p:
            score = -1000
        else:
            score = mobility(st, 1 - p) * 4 - mobility(st, p) + rng.random() * 3
            if st.counts[st.key()] >= 2:
                score += 100     # steer away from repetition draws
        st.undo(u)
        if best_score is None or score < best_score:
            best, best_score = [t], score
        elif score == best_score:
            best.append(t)
    return rng.choice(best)


def pol_smother(victim):
    """Both players minimise the victim's mobility: blocks early, e.g. right after placement."""
    def pol(st, rng, hist):
        best, best_score = [], None
        for t in st.legal_turns():
            u = st.play(t)
            score = mobility(st, victim) + (5 if t[2] is not None else 0) + rng.random() * 1.5
            if st.counts[st.key()] >= 2:
                score += 100
            st.undo(u)
            if best_score is None or score < best_score:
                best, best_score = [t], score
        return best[0]
    return pol


POLICIES = {'random': pol_random, 'capture': pol_capture, 'shuffle': pol_shuffle, 'block': pol_block,
            'smother0': pol_smother(0), 'smother1': pol_smother(1)}


def play_morris(rng, policy, max_turns, stop=None, rules_=rules.NINE):
    """Play until over (or `stop` turns); returns (turns, final state)."""
    st = Morris(max_turns, rules_)
    hist = []
    pol = POLICIES[policy]
    while not st.over and (stop is None or len(hist) < stop):
        t = pol(st, rng, hist)
        st.play(t)
        hist.append(t)
    return hist, st


def replay_turns(turns, max_turns, rules_=rules.NINE):
    st = Morris(max_turns, rules_)
    for t in turns:
        st.play(t)
    return st


def random_morris_token(rng):
    r = rng.random()
    a, b, c = (rng.choice(POINT_NAMES) for _ in range(3))
    if r < 0.4:
        return a
    if r < 0.7:
        return a + '-' + b
    if r < 0.85:
        return a + 'x' + c
    return a + '-' + b + 'x' + c


MORRIS_GARBAGE = ['x', '-', 'd6x', 'a7-', 'a7--d7', 'd6xb4xa1', 'a7-d7-g7', 'xd6', '-d6', 'd6-',
                  'd6xx', 'd6xd', 'a7-d7x', 'a7x-d7', 'a7xd7-g7', '--', 'xx', 'd6d7', 'a7d7',
                  'a7_d7', 'a7:d7', 'a7–d7', 'a7−d7', 'a7-d7×g1', 'd6X b4'.replace(' ', ''),
                  'h1', 'a0', 'a8', 'j5', 'a10', 'd4', 'b7', 'i9', 'e6', 'g8', 'a7-h1', 'h1-a7',
                  'd6xa0', 'd6xd4', 'd4-d5', 'a7-a10', 'a07', 'a+7',
                  'D6', 'A7', 'A7-D7', 'a7-D7', 'd6Xb4', 'D6XB4',
                  'é', 'ｄ６', 'd٦', 'd\u0666', '\u200bd6', 'd6\u200b', 'd6\u00a0', '\u00a0',
                  'd6\x0bd7', '\x0b', 'd6\x1f', '\x1c', '\x00', 'd6\x00', '\u2028', '\u3000d6',
                  '"', '\\', 'd6"', 'a\\7', '"d6"', '\\u0064', '\\"', 'd6\\', '[Event', '[', ']',
                  '{}', '1', '7', 'a', 'd', 'ab', '🙂', 'd6🙂', 'ä7', 'a7\u0301', '\ufeffd6',
                  b'd6\xff', b'\xff', b'\xc3', b'd\xc3\xa9', b'\xed\xa0\x80', b'\xf0\x9f\x98',
                  b'\xc0\xaf', b'a7-\xe2\x80']


def mutate_case(tok, rng):
    r = rng.random()
    if r < 0.4:
        return tok.upper()
    if r < 0.7:
        return tok[0].upper() + tok[1:]
    i = rng.randrange(len(tok))
    return tok[:i] + tok[i].upper() + tok[i + 1:] if tok[i].isalpha() else tok.upper()


def mutate_syntax(tok, rng):
    r = rng.random()
    if r < 0.25:
        return mutate_case(tok, rng)
    if r < 0.35:
        return tok + rng.choice(['x', '-', 'xx', '0', '-' + tok[:2], 'x' + tok[:2], '"', '\\'])
    if r < 0.45:
        i = rng.randrange(len(tok) + 1)
        return tok[:i] + rng.choice(['-', 'x', '"', '\\', 'é', '\x0b', '\u00a0', '0']) + tok[i:]
    if r < 0.55:
        # replace a file or rank by an out-of-range one
        i = rng.randrange(len(tok))
        c = tok[i]
        if c.isdigit():
            return tok[:i] + rng.choice(['0', '8', '9', '10']) + tok[i + 1:]
        if c in 'abcdefg':
            return tok[:i] + rng.choice('hijz') + tok[i + 1:]
        return tok + 'x'
    return rng.choice(MORRIS_GARBAGE)


def illegal_morris_tokens(st):
    """Well-formed but illegal tokens in position st: {category: [tokens]}."""
    p = st.to_move
    opp = 1 - p
    b = st.board
    empties = [q for q in range(24) if b[q] == EMPTY]
    mine = [q for q in range(24) if b[q] == p]
    theirs = [q for q in range(24) if b[q] == opp]
    occupied = mine + theirs
    N = POINT_NAMES
    cats = {}
    legal = st.legal_turns()
    legal_tokens = {morris_token(t) for t in legal}
    # lists, not sets: hash(None) varies between runs in Python 3.11 and the generator
    # must be reproducible from its seed
    mill_steps = list(dict.fromkeys((t[0], t[1]) for t in legal if t[2] is not None))
    quiet_steps = [(t[0], t[1]) for t in legal if t[2] is None]
    caps_of = {}
    for t in legal:
        if t[2] is not None:
            caps_of.setdefault((t[0], t[1]), set()).add(t[2])

    def name(step):
        frm, to = step
        return N[to] if frm is None else N[frm] + '-' + N[to]

    adj = st.adj
    if st.reserves[p] > 0:
        cats['occupied'] = [N[q] for q in occupied]
    if not st.may_move(p):
        cats['move_in_placement'] = [N[q] + '-' + N[r] for q in mine for r in adj[q] if b[r] == EMPTY] + \
                                    [N[q] + '-' + N[r] for q in theirs for r in empties[:3]]
    else:
        if st.reserves[p] == 0:
            cats['place_in_moving'] = [N[q] for q in empties]
        if not st.flying(p):
            far = [N[q] + '-' + N[r] for q in mine for r in empties if r not in adj[q]]
            cats['not_adjacent_4' if len(mine) == 4 else 'not_adjacent'] = far
        cats['move_opponent'] = [N[q] + '-' + N[r] for q in theirs for r in adj[q] if b[r] == EMPTY]
        cats['move_from_empty'] = [N[q] + '-' + N[r] for q in empties for r in adj[q] if b[r] == EMPTY]
        cats['move_to_occupied'] = [N[q] + '-' + N[r] for q in mine for r in occupied if r != q][:20]
        cats['move_same_point'] = [N[q] + '-' + N[q] for q in mine]
    cats['missing_capture'] = [name(s) for s in mill_steps]
    cats['spurious_capture'] = [name(s) + 'x' + N[c] for s in quiet_steps[:10] for c in theirs]
    prot = []
    for s, caps in caps_of.items():
        prot += [name(s) + 'x' + N[c] for c in theirs if c not in caps]
    cats['capture_protected'] = prot
    cats['capture_own'] = [name(s) + 'x' + N[c] for s in mill_steps for c in mine if c != s[0]] + \
                          [name(s) + 'x' + N[s[1]] for s in mill_steps]
    cats['capture_empty'] = [name(s) + 'x' + N[c] for s in mill_steps for c in empties
                             if c != s[1] and c != s[0]]
    out = {}
    for k, v in cats.items():
        v = [t for t in v if t not in legal_tokens]
        if v:
            out[k] = v
    return out


ILLEGAL_CATEGORIES = ['occupied', 'move_in_placement', 'place_in_moving', 'not_adjacent',
                      'not_adjacent_4', 'move_opponent', 'move_from_empty', 'move_to_occupied',
                      'move_same_point', 'missing_capture', 'spurious_capture', 'capture_protected',
                      'capture_protected', 'capture_own', 'capture_empty']


def gen_morris(rng, rules_=rules.NINE):
    """-> (argv, record bytes, kind): a record played under `rules_` (not yet saying so)."""
    kinds = ['complete', 'prefix', 'limit_small', 'limit_random', 'limit_capture', 'repetition',
             'blocked', 'pieces', 'after_end', 'syntax', 'illegal']
    weights = [12, 8, 9, 6, 7, 12, 12, 9, 6, 10, 11]
    if rules_ != rules.NINE:
        # Steered toward quiet draws and full boards (quiet turns only, long limits).
        kinds, weights = kinds + ['quiet', 'full'], weights + [8, 8]
    kind = rng.choices(kinds, weights=weights)[0]
    max_turns = None
    if kind == 'limit_small':
        max_turns = rng.choice([1, 2, 3, 5, 8, 16, 17, 18, 19, 20] + list(range(1, 21)))
    elif kind == 'limit_random':
        max_turns = rng.randint(1, 500)
    elif kind in ('pieces', 'blocked', 'repetition', 'quiet', 'full'):
        max_turns = rng.choice([None, 100, 200, 500, 500, rng.randint(20, 500)])
    elif rng.random() < 0.3:
        max_turns = rng.choice([100, rng.randint(1, 500)])
    limit = max_turns or 100
    policy = {'repetition': 'shuffle', 'pieces': 'capture', 'quiet': 'shuffle', 'full': 'shuffle',
              'blocked': rng.choice(['block', 'block', 'smother0', 'smother1'])}.get(
        kind, rng.choice(['random', 'random', 'capture', 'shuffle', 'block']))
    tokens = []
    if kind == 'limit_capture':
        turns, st = play_morris(rng, 'capture', 500, rules_=rules_)
        caps = [i + 1 for i, t in enumerate(turns) if t[2] is not None]
        if caps:
            max_turns = rng.choice(caps)
            limit = max_turns
            turns = turns[:max_turns + rng.choice([0, 0, 0, 1, 3])]
        tokens = [morris_token(t) for t in turns]
    else:
        turns, st = play_morris(rng, policy, limit, rules_=rules_)
        tokens = [morris_token(t) for t in turns]
        if kind == 'prefix' and tokens:
            tokens = tokens[:rng.randrange(len(tokens) + 1)]
        elif kind == 'after_end':
            extra = [random_morris_token(rng) for _ in range(rng.choice([1, 1, 2, 5]))]
            if rng.random() < 0.2:
                extra[0] = mutate_syntax(extra[0], rng)
            tokens += extra
        elif kind == 'syntax' and tokens:
            i = rng.randrange(len(tokens))
            tokens[i] = mutate_syntax(tokens[i], rng)
            tokens = tokens[:i + 1 + rng.choice([0, 0, 1, 5, 1000])]
        elif kind == 'illegal' and tokens:
            # pick a category, then look for a position of this game where it exists
            want = rng.choice(ILLEGAL_CATEGORIES)
            idx = list(range(len(tokens)))
            rng.shuffle(idx)
            chosen = None
            for i in idx[:20]:
                cats = illegal_morris_tokens(replay_turns(turns[:i], limit, rules_))
                if want in cats:
                    chosen = (i, want, cats)
                    break
                if chosen is None and cats:
                    chosen = (i, rng.choice(sorted(cats)), cats)
            if chosen:
                i, cat, cats = chosen
                tokens[i] = rng.choice(cats[cat])
                tokens = tokens[:i + 1 + rng.choice([0, 0, 1, 5, 1000])]
    argv = ['replay', 'morris']
    if max_turns is not None:
        argv += ['--max-turns', str(max_turns)]
    return argv, render(tokens, rng), kind


def random_rules(rng):
    """A rule set: a named one, or a random combination (often a short quiet count, so that
    quiet draws come up, and twelve pieces, so that full boards do)."""
    if rng.random() < 0.5:
        return rules.NAMED_RULES[rng.choice(['noflying', 'lasker', 'twelve', 'gur9', 'nine'])]
    return (rng.choice([9, 10, 11, 12, 12]), rng.randint(0, 1), rng.randint(0, 1),
            rng.randint(0, 1), rng.choice([0, 0, rng.randint(1, 30), rng.randint(1, 500)]))


def spell_rules(r, rng):
    """One way to write rule set r: canonical, a name with overrides, or a list in any order."""
    keys = list(rules.RULE_KEYS)
    how = rng.random()
    if how < 0.3:
        return rules.canonical_rules(r)
    if how < 0.7:
        name = rng.choice(sorted(rules.NAMED_RULES))
        base = rules.NAMED_RULES[name]
        over = [(k, v) for k, v, b in zip(keys, r, base) if v != b]
        rng.shuffle(over)
        return ','.join([name] + ['%s=%d' % kv for kv in over])
    items = [(k, v) for k, v, d in zip(keys, r, rules.NINE) if v != d or rng.random() < 0.3]
    rng.shuffle(items)
    return ','.join('%s=%d' % kv for kv in items) or 'nine'


BAD_RULES = ['ten', 'Nine', 'nine,', 'twelve,nine', 'pieces=13', 'pieces=09', 'quiet=501',
             'quiet=-1', 'diagonals=2', 'lasker=yes', 'pieces=10,pieces=10', 'Pieces=10',
             'pieces =10', '', 'nine,,quiet=2', 'pieces', 'nine' + ',quiet=7' * 30, 'twelve;flying=0',
             'twelve,flying=0,', 'é', 'nine,x=1']


def gen_morris_rules(rng):
    """A record under other rules: given by --rules, by a header, or both (agreeing or not);
    sometimes a malformed or doubled header."""
    r = random_rules(rng)
    argv, data, kind = gen_morris(rng, r)
    how = rng.choices(['option', 'header', 'both', 'contradict', 'bad_header', 'second_header'],
                      weights=[3, 3, 2, 1, 1, 1])[0]
    if how in ('option', 'both', 'contradict'):
        argv += ['--rules', spell_rules(r, rng)]
    header = None
    if how in ('header', 'both', 'second_header'):
        header = spell_rules(r, rng)
    elif how == 'contradict':
        other = random_rules(rng)
        header = spell_rules(other, rng)
        kind = 'contradict' if other != r else kind
    elif how == 'bad_header':
        header = rng.choice(BAD_RULES)
        kind = 'bad_header'
    if header is not None:
        line = rng.choice(['[Rules "%s"]', '[Rules %s]', ' [Rules  "%s" ]\t', '[Rules "%s"]\r'])
        lines = [line % header]
        if how == 'second_header':
            lines.append('[Rules "%s"]' % spell_rules(r, rng))
            kind = 'second_header'
        if rng.random() < 0.5:
            lines.insert(0, '[Event "x"]')
        data = ('\n'.join(lines) + '\n').encode() + data
    return argv, data, 'rules_' + kind


# ---------------------------------------------------------------------------
# Meta game generation
# ---------------------------------------------------------------------------

META_GARBAGE = ['E5', 'A9', 'I1', 'j5', 'a0', 'a10', 'i0', 'e55', 'e', '5', '55', 'ee', '5e', 'e-5',
                'e5e5', 'e5x', 'xe5', 'é5', 'ｅ５', 'e٥', 'e\u0665', '\u200be5', 'e5\u00a0', 'e5\x0b',
                'e0', 'z9', 'e05', 'e+5', '"', '\\', 'e5"', '[', 'e5\\', '🙂', '\x00', 'ä5',
                b'e5\xff', b'\xc3', b'\xe2\x82']


def mutate_meta(tok, rng):
    r = rng.random()
    if r < 0.3:
        return tok.upper()
    if r < 0.4:
        return tok + rng.choice(['x', '5', '-', '"', '\\', '0'])
    if r < 0.5:
        return rng.choice('jkz') + tok[1:]
    if r < 0.6:
        return tok[0] + rng.choice(['0', '10', ''])
    return rng.choice(META_GARBAGE)


def illegal_meta_tokens(st):
    cats = {}
    cells = st.cells
    cats['occupied'] = [META_NAMES[i] for i in range(81) if cells[i] != EMPTY]
    cats['closed_board'] = [META_NAMES[i] for i in range(81)
                            if cells[i] == EMPTY and st.results[i // 9] != rules.OPEN]
    if st.required is not None:
        cats['wrong_board'] = [META_NAMES[i] for i in range(81) if cells[i] == EMPTY and
                               st.results[i // 9] == rules.OPEN and i // 9 != st.required]
    return {k: v for k, v in cats.items() if v}


def play_meta(rng, policy):
    st = Meta()
    moves = []
    while not st.over:
        legal = st.legal_moves()
        m = None
        if policy == 'draw':
            # avoid winning small boards when possible: leads to drawn boards and drawn games
            quiet = []
            for c in legal:
                u = st.play(c)
                if st.results[c // 9] in (rules.OPEN, rules.DRAWN):
                    quiet.append(c)
                st.undo(u)
            if quiet and rng.random() < 0.9:
                m = rng.choice(quiet)
        elif policy == 'greedy' and rng.random() < 0.7:
            wins = []
            for c in legal:
                u = st.play(c)
                if st.results[c // 9] == 1 - st.to_move:
                    wins.append(c)
                st.undo(u)
            if wins:
                m = rng.choice(wins)
        if m is None:
            m = rng.choice(legal)
        st.play(m)
        moves.append(m)
    return moves, st


def gen_meta(rng):
    kind = rng.choices(['complete', 'prefix', 'draw', 'after_end', 'syntax', 'illegal'],
                       weights=[28, 15, 12, 8, 15, 22])[0]
    policy = 'draw' if kind == 'draw' else rng.choice(['random', 'random', 'greedy', 'draw'])
    moves, st = play_meta(rng, policy)
    tokens = [META_NAMES[m] for m in moves]
    if kind == 'prefix':
        tokens = tokens[:rng.randrange(len(tokens) + 1)]
    elif kind == 'after_end':
        tokens += [rng.choice(META_NAMES) for _ in range(rng.choice([1, 1, 3]))]
        if rng.random() < 0.2:
            tokens[len(moves)] = mutate_meta(tokens[len(moves)], rng)
    elif kind == 'syntax':
        i = rng.randrange(len(tokens))
        tokens[i] = mutate_meta(tokens[i], rng)
        tokens = tokens[:i + 1 + rng.choice([0, 1, 5, 1000])]
    elif kind == 'illegal':
        i = rng.randrange(1, len(tokens))
        pos = Meta()
        for m in moves[:i]:
            pos.play(m)
        cats = illegal_meta_tokens(pos)
        if cats:
            tokens[i] = rng.choice(cats[rng.choice(sorted(cats))])
            tokens = tokens[:i + 1 + rng.choice([0, 1, 5, 1000])]
    return ['replay', 'meta'], render(tokens, rng), kind


# ---------------------------------------------------------------------------
# Running and comparing
# ---------------------------------------------------------------------------

def run_engine(engine, argv, data):
    try:
        p = subprocess.run([engine] + argv, input=data, capture_output=True, timeout=ENGINE_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, b'', b'timeout'
    return p.returncode, p.stdout, p.stderr


def strip_nl(s):
    return s[:-1] if s.endswith('\n') else s


def compare_replay(ref, eng):
    """ref = (code, stdout str); eng = (code, stdout bytes, stderr bytes). -> None or reason."""
    rcode, rout = ref
    ecode, eout, eerr = eng
    if ecode is None:
        return 'engine timed out'
    if ecode != rcode:
        return 'exit code %s, expected %s' % (ecode, rcode)
    try:
        etext = eout.decode('utf-8')
    except UnicodeDecodeError:
        return 'engine stdout is not UTF-8'
    if rcode == 0:
        if strip_nl(etext) != strip_nl(rout):
            return 'stdout differs'
        return None
    if rcode == 1:
        try:
            e = json.loads(etext)
            r = json.loads(rout)
        except ValueError:
            return 'engine error output is not one JSON object'
        if not isinstance(e, dict):
            return 'engine error output is not a JSON object'
        fields = ('error', 'line') if r.get('error') == 'header' else ('error', 'index', 'token')
        for k in fields:
            if e.get(k, '<missing>') != r[k]:
                return 'field %r differs' % k
        return None
    return None  # usage errors: exit code only


def cli_checks():
    """Extra (argv, stdin) cases: usage errors and small perfts."""
    cases = []
    for a in (['replay', 'morris', '--max-turns', '0'], ['replay', 'morris', '--max-turns', '501'],
              ['replay', 'morris', '--max-turns', 'abc'], ['replay', 'morris', '--max-turns', '-3'],
              ['replay', 'morris', '--max-turns', '2.5'], ['replay', 'morris', '--max-turns', ''],
              ['replay', 'morris', '--max-turns'], ['replay', 'chess'],
              ['replay', 'morris', '--max-turns', '1'], ['replay', 'morris', '--max-turns', '500']):
        cases.append(('cli', a, b'd6 a7'))
    for d in (0, 1, 2, 3):
        cases.append(('perft', ['perft', 'morris', str(d)], b''))
        cases.append(('perft', ['perft', 'meta', str(d)], b''))
    cases.append(('perft', ['perft', 'morris', '3', '--max-turns', '2'], b''))
    cases.append(('perft', ['perft', 'morris', '2', '--max-turns', '2'], b''))
    for bad in BAD_RULES:
        cases.append(('cli', ['replay', 'morris', '--rules', bad], b'd6 a7'))
        cases.append(('cli', ['perft', 'morris', '2', '--rules', bad], b''))
    cases.append(('cli', ['replay', 'meta', '--rules', 'nine'], b'e5'))
    # Every named rule set to depth 5 (the reference takes some 15 s for these), and a few
    # combinations.
    for name in sorted(rules.NAMED_RULES):
        for d in range(1, 6):
            cases.append(('perft', ['perft', 'morris', str(d), '--rules', name], b''))
    for text in ('twelve,flying=0,lasker=1', 'pieces=11,diagonals=1,quiet=3',
                 'lasker,diagonals=1,pieces=12'):
        for d in range(1, 5):
            cases.append(('perft', ['perft', 'morris', str(d), '--rules', text], b''))
    cases.append(('perft', ['perft', 'morris', '4', '--rules', 'quiet=3'], b''))
    cases.append(('perft', ['perft', 'morris', '4', '--rules', 'quiet=4'], b''))
    return cases


def compare_perft(ref, eng):
    rcode, rout = ref
    ecode, eout, _ = eng
    if ecode != rcode:
        return 'exit code %s, expected %s' % (ecode, rcode)
    elines = eout.decode('utf-8', 'replace').strip().splitlines()
    if not elines or elines[-1].strip() != rout.strip():
        return 'perft count differs'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--engine', required=True, help='path to the engine binary')
    ap.add_argument('--count', type=int, default=2000, help='records per game (default 2000)')
    ap.add_argument('--rules-count', type=int, default=2000,
                    help='Morris records under other rule sets (default 2000)')
    ap.add_argument('--seed', type=int, default=1, help='generator seed (default 1)')
    ap.add_argument('--jobs', type=int, default=max(2, (os.cpu_count() or 2) * 2),
                    help='engine processes in parallel')
    ap.add_argument('--no-cli-checks', action='store_true', help='records only')
    ap.add_argument('--dump', metavar='DIR', help='write every failing record to DIR')
    args = ap.parse_args()
    if args.count < 0:
        ap.error('--count must be >= 0')
    engine = args.engine
    if os.path.exists(engine):
        engine = os.path.abspath(engine)
    elif os.sep not in engine and shutil.which(engine):
        engine = shutil.which(engine)
    if not (os.path.isfile(engine) and os.access(engine, os.X_OK)):
        print('crosscheck: engine binary %r not found or not executable '
              '(build it first, e.g. cargo build --release -p engine)' % args.engine, file=sys.stderr)
        return 2
    try:
        subprocess.run([engine, 'perft', 'meta', '1'], capture_output=True, timeout=ENGINE_TIMEOUT)
    except OSError as e:
        print('crosscheck: cannot run %r: %s' % (args.engine, e), file=sys.stderr)
        return 2

    t0 = time.time()
    cases = []   # (label, argv, data, kind)
    for game, gen, salt, count in (('morris', gen_morris, 1, args.count),
                                   ('meta', gen_meta, 2, args.count),
                                   ('rules', gen_morris_rules, 3, args.rules_count)):
        for i in range(count):
            rng = random.Random((args.seed * 1000003 + salt) * 1000003 + i)
            argv, data, kind = gen(rng)
            cases.append(('%s#%d' % (game, i), argv, data, kind))
    t_gen = time.time() - t0

    t0 = time.time()
    refs = [rules.cli(argv, data)[:2] for _, argv, data, _ in cases]
    t_ref = time.time() - t0

    extra = [] if args.no_cli_checks else cli_checks()
    t0 = time.time()
    # The reference's perfts of every rule set take most of this: two processes.
    with concurrent.futures.ProcessPoolExecutor(max_workers=2) as ex:
        extra_refs = list(ex.map(reference_cli, [(argv, data) for _, argv, data in extra]))
    for j, ((label, argv, data), ref) in enumerate(zip(extra, extra_refs)):
        cases.append(('%s#%d' % (label, j), argv, data, label))
        refs.append(ref)
    t_checks = time.time() - t0

    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        engs = list(ex.map(lambda c: run_engine(engine, c[1], c[2]), cases))
    t_eng = time.time() - t0

    passed = failed = 0
    shown = 0
    reasons = Counter()
    for (label, argv, data, kind), ref, eng in zip(cases, refs, engs):
        if kind == 'perft':
            why = compare_perft(ref, eng)
        else:
            why = compare_replay(ref, eng)
        if label.startswith(('morris', 'meta', 'rules')):
            reasons[(label.split('#')[0], outcome(ref))] += 1
        if why is None:
            passed += 1
            continue
        failed += 1
        if args.dump:
            os.makedirs(args.dump, exist_ok=True)
            name = label.replace('#', '-')
            with open(os.path.join(args.dump, name + '.record'), 'wb') as f:
                f.write(data)
            with open(os.path.join(args.dump, name + '.args'), 'w') as f:
                f.write(' '.join(argv) + '\n')
        if shown < 10:
            shown += 1
            print('MISMATCH %s (%s): %s' % (label, kind, why))
            print('  args:      %s' % ' '.join(argv))
            print('  record:    %r' % data)
            print('  reference: exit %s  %s' % (ref[0], ref[1].rstrip('\n')))
            print('  engine:    exit %s  %s%s' % (
                eng[0], eng[1].decode('utf-8', 'replace').rstrip('\n'),
                ('  [stderr: %s]' % eng[2].decode('utf-8', 'replace').strip()[:300]) if eng[2] else ''))
    print('outcomes (reference):')
    for game in ('morris', 'meta', 'rules'):
        items = sorted(((k[1], v) for k, v in reasons.items() if k[0] == game), key=lambda kv: -kv[1])
        print('  %s: %s' % (game, ', '.join('%s %d' % kv for kv in items)))
    print('time: generate %.1fs, reference %.1fs (command-line checks %.1fs), engine %.1fs'
          % (t_gen, t_ref, t_checks, t_eng))
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


def reference_cli(case):
    argv, data = case
    return rules.cli(argv, data)[:2]


def outcome(ref):
    code, out = ref
    if code != 0:
        return 'header' if code == 1 and '"header"' in out else 'error'
    o = json.loads(out)
    if o['game'] == 'morris':
        return o['reason'] or 'unfinished'
    if not o['over']:
        return 'unfinished'
    return 'draw' if o['winner'] is None else 'win' + 'XO'[o['winner']]


if __name__ == '__main__':
    sys.exit(main())
