#!/usr/bin/env python3
"""Unit checks of the reference rules: perft values and hand-made positions.

    python3 tests/reference/test_rules.py
"""

import json
import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rules  # noqa: E402
from rules import EMPTY, POINT_INDEX as P, Morris, Meta, cli, replay  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


def morris_from(board, reserves=(0, 0), to_move=0, turns=40, max_turns=100, rules=rules.NINE):
    """Build a Morris position from a 24-char '.BR' string (repetition counts reset)."""
    st = Morris(max_turns, rules)
    st.board = [{'.': EMPTY, 'B': 0, 'R': 1}[c] for c in board]
    st.reserves = list(reserves)
    st.to_move = to_move
    st.turns = turns
    st.counts = {st.key(): 1}
    return st


def board_of(**pieces):
    """board_of(B='a7 d7', R='b6') -> 24-char string."""
    b = ['.'] * 24
    for colour, names in pieces.items():
        for n in names.split():
            b[P[n]] = colour
    return ''.join(b)


def play_tokens(st, tokens):
    for t in tokens.split():
        st.play(st.parse(t))
    return st


def out(game, record, max_turns=None, rules=None):
    code, line = replay(game, record.encode(), max_turns, rules)
    return code, json.loads(line)


def R(text):
    return rules.parse_rules(text)


PERFT_DIR = os.path.join(HERE, '..', '..', 'engine', 'tests', 'perft')
PERFT_LIMIT = 180000   # larger counts: the cross-check compares the engine's (depths 1-5)


def perft_cases():
    """Every `depth` line of the engine's perft data files, with its settings (the format is
    described in engine/tests/perft.rs: game, max-turns, rules, record, depth)."""
    cases = []
    for name in sorted(os.listdir(PERFT_DIR)):
        if not name.endswith('.perft'):
            continue
        game, max_turns, rule_set, record = None, 100, 'nine', ''
        with open(os.path.join(PERFT_DIR, name)) as f:
            for line in f:
                words = line.split()
                if not words or words[0].startswith('#'):
                    continue
                if words[0] == 'game':
                    game = words[1]
                elif words[0] == 'max-turns':
                    max_turns = int(words[1])
                elif words[0] == 'rules':
                    rule_set = words[1]
                elif words[0] == 'record':
                    record = ' '.join(words[1:])
                elif words[0] == 'depth':
                    cases.append((name, game, max_turns, rule_set, record, int(words[1]),
                                  int(words[2])))
                else:
                    raise ValueError('%s: %r' % (name, line))
    return cases


class Perft(unittest.TestCase):
    def test_morris(self):
        for d, n in enumerate([1, 24, 552, 12144, 255024]):
            self.assertEqual(rules.perft_morris(d), n)

    def test_morris_limit(self):
        self.assertEqual(rules.perft_morris(1, 1), 24)
        self.assertEqual(rules.perft_morris(2, 1), 0)
        self.assertEqual(rules.perft_morris(2, 2), 552)
        self.assertEqual(rules.perft_morris(3, 2), 0)
        self.assertEqual(rules.perft_morris(4, 4), 255024)

    def test_meta(self):
        for d, n in enumerate([1, 81, 720, 6336, 55080]):
            self.assertEqual(rules.perft_meta(d), n)

    def test_rule_sets_from_the_start(self):
        for name, counts in (('noflying', [24, 552, 12144]), ('gur9', [24, 552, 12144]),
                             ('twelve', [24, 552, 12144]), ('lasker', [24, 552, 12144 + 64 * 22])):
            for d, n in enumerate(counts, 1):
                self.assertEqual(rules.perft_morris(d, 100, R(name)), n, (name, d))

    def test_the_engine_perft_data_files(self):
        checked = 0
        for name, game, max_turns, rule_set, record, depth, expected in perft_cases():
            if expected > PERFT_LIMIT or depth > 5:   # (depth 6 of a 5-turn game: 5 M leaves)
                continue
            if game == 'meta':
                self.assertEqual(rules.perft_meta(depth), expected, (name, depth))
            else:
                st = Morris(max_turns, R(rule_set))
                play_tokens(st, record)
                got = rules.perft_morris(depth, max_turns, R(rule_set), st)
                self.assertEqual(got, expected, (name, rule_set, record[:20], depth))
            checked += 1
        self.assertGreaterEqual(checked, 40)


class MorrisRules(unittest.TestCase):
    def test_geometry(self):
        self.assertEqual(rules.ADJ[P['d6']], tuple(sorted([P['d7'], P['b6'], P['f6'], P['d5']])))
        self.assertEqual(rules.ADJ[P['a7']], (P['d7'], P['a4']))
        self.assertEqual(sum(len(a) for a in rules.ADJ), 64)

    def test_double_mill_one_capture(self):
        pre = 'd7 b6 g7 f6 a1 f2 a4 b2'
        st = play_tokens(Morris(), pre)
        turns = [t for t in st.legal_turns() if t[1] == P['a7']]
        # one turn per capture target (4 unprotected red pieces), never two captures
        self.assertEqual(sorted(t[2] for t in turns), sorted(P[n] for n in 'b6 f6 f2 b2'.split()))
        code, o = out('morris', pre + ' a7xb6')
        self.assertEqual(code, 0)
        self.assertEqual(o['board'], board_of(B='d7 g7 a1 a4 a7', R='f6 f2 b2'))
        self.assertEqual(o['reserves'], [4, 5])
        self.assertEqual(o['turns'], 9)
        code, o = out('morris', pre + ' a7')
        self.assertEqual((code, o['index'], o['token']), (1, 8, 'a7'))
        code, o = out('morris', pre + ' a7xb6xf6')
        self.assertEqual((code, o['index']), (1, 8))
        code, o = out('morris', pre + ' a7xd7')      # own piece
        self.assertEqual((code, o['index']), (1, 8))
        code, o = out('morris', pre + ' a7xd6')      # empty point
        self.assertEqual((code, o['index']), (1, 8))
        code, o = out('morris', pre + ' d6xb6')      # no mill closes
        self.assertEqual((code, o['index'], o['token']), (1, 8, 'd6xb6'))

    def test_protection_and_all_in_mills(self):
        # red forms the mill b6 d6 f6 and takes blue's c5.
        pre = 'a1 b6 a4 d6 c5 f6xc5'
        st = play_tokens(Morris(), pre)
        self.assertEqual(st.board.count(0), 2)
        # every red piece stands in a mill: any may be taken.
        code, o = out('morris', pre + ' a7xd6')
        self.assertEqual(code, 0)
        self.assertEqual(o['board'], board_of(B='a1 a4 a7', R='b6 f6'))
        # with a red piece outside the mill, the mill is protected.
        pre2 = 'a1 b6 a4 d6 c5 f6xc5 e3 g1'
        code, o = out('morris', pre2 + ' a7xd6')
        self.assertEqual((code, o['index']), (1, 8))
        code, o = out('morris', pre2 + ' a7xg1')
        self.assertEqual(code, 0)

    def test_placement_and_moving_stage(self):
        code, o = out('morris', 'd6 d6')
        self.assertEqual((code, o['index']), (1, 1))
        code, o = out('morris', 'd6 d7-a7')
        self.assertEqual((code, o['index']), (1, 1))
        st = morris_from(board_of(B='a7 g1 f2 c3', R='g7 a1 b2 e5'))
        self.assertRaises(rules.IllegalTurn, st.parse, 'd6')         # placing when moving
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-d6')      # not adjacent
        self.assertRaises(rules.IllegalTurn, st.parse, 'g7-g4')      # opponent's piece
        self.assertRaises(rules.IllegalTurn, st.parse, 'd7-a7')      # empty start
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-g7')      # occupied (and far)
        self.assertEqual(st.parse('a7-d7'), (P['a7'], P['d7'], None))

    def test_flying_only_with_exactly_three(self):
        st = morris_from(board_of(B='a7 g1 f2', R='g7 a1 b2 e5'))
        self.assertEqual(st.parse('a7-d5'), (P['a7'], P['d5'], None))
        st = morris_from(board_of(B='a7 g1 f2', R='g7 a1 b2 e5'), to_move=1)
        self.assertRaises(rules.IllegalTurn, st.parse, 'g7-d5')       # red has 4
        # three on the board during placement: still placing
        st = play_tokens(Morris(), 'a7 b6 g1 d6 f2')
        self.assertRaises(rules.IllegalTurn, st.parse, 'b6-e5')

    def test_blocked_right_after_last_placement(self):
        # red places its ninth piece on d1: blue (9 pieces) has no move.
        st = morris_from(board_of(B='a1 b6 d6 f6 f4 f2 d2 b2 b4', R='d7 g4 g1 a4 d5 e4 d3 c4'),
                         reserves=(0, 1), to_move=1, turns=17)
        self.assertTrue(st.has_move(0))
        st.play(st.parse('d1'))
        self.assertEqual((st.over, st.winner, st.reason, st.to_move, st.turns),
                         (True, 1, 'blocked', 0, 18))
        self.assertEqual(json.loads(st.to_json())['phase'], 'over')

    def test_blocked_not_during_placement(self):
        # blue's pieces cannot move but blue still has a piece to place: not blocked.
        st = morris_from(board_of(B='b6 d6 f6 f4 f2 d2 b2 b4', R='d7 g4 a4 d5 e4 d3 c4'),
                         reserves=(1, 2), to_move=1, turns=15)
        st.play(st.parse('g1'))
        self.assertFalse(st.over)

    def test_pieces(self):
        # a4-a1 opens the a7-a4-a1 line: no mill, so no capture allowed.
        st = morris_from(board_of(B='a7 d7 a4 f2', R='g4 b2 e5'))
        self.assertRaises(rules.IllegalTurn, st.parse, 'a4-a1xg4')
        # red down to 3; blue closes a mill and takes one -> red has 2.
        st = morris_from(board_of(B='a7 d7 g4 f2', R='b2 e5 c3'))
        self.assertRaises(rules.IllegalTurn, st.parse, 'g4-g7')      # capture required
        self.assertRaises(rules.IllegalTurn, st.parse, 'f2-g7xe5')   # not adjacent, 4 pieces
        st.play(st.parse('g4-g7xe5'))
        self.assertEqual((st.over, st.winner, st.reason, st.to_move), (True, 0, 'pieces', 1))

    def test_limit_on_capturing_win(self):
        st = morris_from(board_of(B='a7 d7 g4 f2', R='b2 e5 c3'), turns=99, max_turns=100)
        st.play(st.parse('g4-g7xe5'))
        self.assertEqual((st.over, st.winner, st.reason, st.turns), (True, 0, 'pieces', 100))
        st = morris_from(board_of(B='a7 d7 g4 f2', R='b2 e5 c3 d3'), turns=99, max_turns=100)
        st.play(st.parse('g4-g7xe5'))
        self.assertEqual((st.over, st.winner, st.reason), (True, None, 'limit'))
        # limit during placement, on a capturing turn
        code, o = out('morris', 'd7 b6 g7 f6 a7xb6', max_turns=5)
        self.assertEqual((code, o['phase'], o['reason'], o['winner'], o['turns']),
                         (0, 'over', 'limit', None, 5))
        code, o = out('morris', 'd7 b6 g7 f6 a7xb6 d6', max_turns=5)
        self.assertEqual((code, o['index'], o['token']), (1, 5, 'd6'))

    def test_third_repetition(self):
        st = morris_from(board_of(B='a7 g1 f2 c3', R='g7 a1 b2 e5'))
        shuffle = 'a7-d7 g7-g4 d7-a7 g4-g7'
        play_tokens(st, shuffle)
        self.assertFalse(st.over)          # second occurrence
        play_tokens(st, 'a7-d7 g7-g4 d7-a7')
        self.assertFalse(st.over)
        st.play(st.parse('g4-g7'))         # third occurrence of the start
        self.assertEqual((st.over, st.winner, st.reason, st.turns), (True, None, 'repetition', 48))
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-d7')
        # other intermediate positions reached their third occurrence? no: they occur twice.

    def test_repetition_counts_player_to_move(self):
        # same board, different player to move: not the same position.
        st = morris_from(board_of(B='a7 g1 f2 c3', R='g7 a1 b2 e5'))
        k0 = st.key()
        play_tokens(st, 'a7-d7 g7-g4 d7-a7 g4-g7')
        self.assertEqual(st.counts[k0], 2)

    def test_tokens_grammar(self):
        for bad in ['D6', 'h1', 'a0', 'a8', 'j5', 'a10', 'b7', 'd4', 'x', '-', 'd6x', 'a7-',
                    'a7--d7', 'd6xb4xa1', 'a7-d7-g7', 'é', '"', '\\', 'd6\x0bd7', 'ｄ６',
                    'd\u0666', 'd6\u00a0']:
            code, o = out('morris', 'a7 ' + bad)
            self.assertEqual((code, o['index'], o['token']), (1, 1, bad), bad)

    def test_record_format(self):
        rec = '[Event "x"]\r\n  d6\t\ta7\r\n\n\x0c  [Site "y"] d7\n\td7 [x'
        code, o = out('morris', rec)
        self.assertEqual((code, o['index'], o['token']), (1, 3, '[x'))
        code, o = out('morris', '')
        self.assertEqual(o, {'game': 'morris', 'board': '.' * 24, 'reserves': [9, 9], 'to_move': 0,
                             'turns': 0, 'phase': 'play', 'winner': None, 'reason': None})
        code, line = replay('morris', b'd6 \xff\xfe a7')
        self.assertEqual(json.loads(line)['token'], '\ufffd\ufffd')
        code, line = replay('morris', '\u00a0d6'.encode())
        self.assertEqual(code, 1)
        code, line = replay('morris', b'\x0b[Event "x"]')    # \x0b is not whitespace here
        self.assertEqual(code, 1)


class MetaRules(unittest.TestCase):
    def test_names(self):
        self.assertEqual(rules.META_INDEX['a9'], 0)
        self.assertEqual(rules.META_INDEX['c7'], 8)
        self.assertEqual(rules.META_INDEX['d9'], 9)
        self.assertEqual(rules.META_INDEX['a6'], 27)
        self.assertEqual(rules.META_INDEX['e5'], 40)
        self.assertEqual(rules.META_INDEX['i1'], 80)

    def test_required_and_closed(self):
        code, o = out('meta', 'e5')
        self.assertEqual((o['required'], o['to_move'], o['moves']), (4, 1, 1))
        code, o = out('meta', 'e5 a9')      # wrong board
        self.assertEqual((code, o['index']), (1, 1))
        code, o = out('meta', 'e5 e5')      # occupied
        self.assertEqual((code, o['index']), (1, 1))
        for bad in ['E5', 'j5', 'a0', 'a10', 'e', '5', 'e5x', '', 'e٥']:
            if bad:
                code, o = out('meta', bad)
                self.assertEqual((code, o['index'], o['token']), (1, 0, bad))

    def test_small_win_sends_free(self):
        # X b4c3, O b3c4, X b4c5, O b5c4, X b4c4: X wins board 4 and is sent to it -> free.
        st = Meta()
        for i in [4 * 9 + 3, 3 * 9 + 4, 4 * 9 + 5, 5 * 9 + 4, 4 * 9 + 4]:
            st.play(st.parse(rules.META_NAMES[i]))
        o = json.loads(st.to_json())
        self.assertEqual(o['results'], '....X....')
        self.assertIsNone(o['required'])
        self.assertRaises(rules.IllegalTurn, st.parse, rules.META_NAMES[4 * 9 + 0])  # closed board
        self.assertEqual(len(st.legal_moves()), 81 - 5 - 6)

    def test_game_win_line_order(self):
        # X wins board 4, completing both row (3,4,5) and column (1,4,7): rows come first.
        st = Meta()
        st.results = [-1, 0, -1, 0, -1, 0, -1, 0, -1]
        st.cells[36] = st.cells[37] = 0
        st.required = 4
        st.play(38)
        self.assertEqual((st.over, st.winner, st.line, st.required, st.to_move), (True, 0, [3, 4, 5], None, 1))
        self.assertRaises(rules.IllegalTurn, st.parse, 'a1')
        o = json.loads(st.to_json())
        self.assertEqual((o['over'], o['winner'], o['line']), (True, 0, [3, 4, 5]))

    def test_last_board_won_without_line_is_draw(self):
        st = Meta()
        st.results = [0, 1, 0, 0, 1, 1, 1, 0, -1]
        # board 8: X O O / . O . / X X . with O to move.
        for c, v in enumerate([0, 1, 1, EMPTY, 1, EMPTY, 0, 0, EMPTY]):
            st.cells[72 + c] = v
        st.to_move = 1
        st.required = 8
        st.play(st.parse(rules.META_NAMES[72 + 5]))   # O: no line; X is sent to closed board 5
        self.assertEqual((st.results[8], st.required), (-1, None))
        st.play(st.parse(rules.META_NAMES[72 + 8]))   # X: 6,7,8 X X X -> X wins board 8, no big line -> draw
        self.assertEqual(st.results[8], 0)
        self.assertEqual((st.over, st.winner, st.line, st.required), (True, None, None, None))

    def test_full_board_draw(self):
        st = Meta()
        st.results = [0, 1, 0, 0, 1, 1, 1, 0, -1]
        # board 8: X O X / X O O / O X . ; X plays cell 8 -> no line -> drawn -> game drawn
        for c, v in enumerate([0, 1, 0, 0, 1, 1, 1, 0]):
            st.cells[72 + c] = v
        st.required = 8
        st.play(80)
        self.assertEqual(st.results[8], rules.DRAWN)
        self.assertEqual((st.over, st.winner, st.line, st.required), (True, None, None, None))
        self.assertEqual(json.loads(st.to_json())['results'], 'XOXXOOOXD')

    def test_win_filling_board_is_win(self):
        st = Meta()
        # board 0: X O X / O X O / O X . ; X plays cell 8 -> 0,4,8 X X X and full -> X wins
        for c, v in enumerate([0, 1, 0, 1, 0, 1, 1, 0]):
            st.cells[c] = v
        st.required = 0
        st.play(8)
        self.assertEqual(st.results[0], 0)
        self.assertEqual(st.required, 8)


class RuleSets(unittest.TestCase):
    def test_parsing(self):
        self.assertEqual(R('nine'), (9, 0, 1, 0, 0))
        self.assertEqual(R('twelve,flying=0'), (12, 1, 0, 0, 0))
        self.assertEqual(R('lasker,pieces=11'), (11, 0, 1, 1, 0))
        self.assertEqual(R('quiet=500,pieces=10'), (10, 0, 1, 0, 500))
        self.assertEqual(rules.canonical_rules(R('gur9')),
                         'pieces=9,diagonals=0,flying=1,lasker=0,quiet=50')
        for bad in ['', 'ten', 'Nine', 'nine,', ',nine', 'nine,,quiet=1', 'nine,twelve',
                    'pieces=10,lasker', 'pieces', 'Pieces=9', 'pieces =9', ' pieces=9',
                    'pieces=09', 'pieces=13', 'pieces=8', 'pieces=', 'pieces=+9', 'quiet=501',
                    'quiet=00', 'diagonals=2', 'flying=true', 'pieces=9,pieces=9',
                    'nine' + ',quiet=1' * 40]:
            self.assertRaises(rules.BadRules, R, bad)

    def test_diagonal_mill(self):
        code, o = out('morris', 'a7 d7 b6 d6 c5xd7', rules=R('twelve'))
        self.assertEqual((code, o['board'], o['reserves']),
                         (0, board_of(B='a7 b6 c5', R='d6'), [9, 10]))
        self.assertEqual(o['rules'], 'pieces=12,diagonals=1,flying=1,lasker=0,quiet=0')
        code, o = out('morris', 'a7 d7 b6 d6 c5', rules=R('twelve'))
        self.assertEqual((code, o['index']), (1, 4))
        code, o = out('morris', 'a7 d7 b6 d6 c5xd7')
        self.assertEqual((code, o['index']), (1, 4))
        st = morris_from(board_of(B='a7 d7 g7 f2', R='a1 b2 c3 d1 e3'), rules=R('twelve'))
        self.assertEqual(st.parse('a7-b6'), (P['a7'], P['b6'], None))
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-c5')
        st = morris_from(board_of(B='a7 d7 f6 e5', R='a1 b2 c3 d1 e3'), rules=R('twelve'))
        self.assertEqual(sorted(t[2] for t in st.legal_turns() if t[:2] == (P['f6'], P['g7'])),
                         [P['d1'], P['e3']])     # a1-b2-c3 is a mill: protected

    def test_lasker_slide_captures_during_placement(self):
        st = morris_from(board_of(B='a7 d7 g4', R='b6 d6 c3'), reserves=(6, 6), rules=R('lasker'))
        self.assertEqual(len(st.legal_turns()), 18 + 1 + 1 + 3 * 3 - 2)
        st.play(st.parse('g4-g7xc3'))
        self.assertEqual((st.reserves, st.board.count(1), st.quiet_turns), ([6, 6], 2, 0))
        st = morris_from(board_of(B='a7 d7 g4', R='b6 d6 c3'), reserves=(6, 6))
        self.assertRaises(rules.IllegalTurn, st.parse, 'g4-g7xc3')

    def test_lasker_empty_reserve_slides_only(self):
        st = morris_from(board_of(B='a7 g7 g1', R='d7 d1 a1 f2'), reserves=(0, 2), rules=R('lasker'))
        self.assertRaises(rules.IllegalTurn, st.parse, 'e4')
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-e4')     # no flying yet
        self.assertEqual(st.parse('a7-a4'), (P['a7'], P['a4'], None))
        # walled in while the other still places: blocked
        st = morris_from(board_of(B='a7 g7 g1 a1', R='d7 g4 d1'), reserves=(0, 2), to_move=1,
                         rules=R('lasker'))
        st.play(st.parse('a4'))
        self.assertEqual((st.over, st.winner, st.reason), (True, 1, 'blocked'))

    def test_lasker_repetition_during_placement(self):
        code, o = out('morris', 'a7 g1 ' + 'a7-d7 g1-g4 d7-a7 g4-g1 ' * 2, rules=R('lasker'))
        self.assertEqual((code, o['reason'], o['reserves'], o['turns']),
                         (0, 'repetition', [9, 9], 10))

    def test_full_board(self):
        rec = ('e5 g7 c5 d6 d7 a7 a4 c3 e3 d5 f6 f4 g4 f2 d3 b6 b4 c4 d2 e4 b2 a1 g1 d1')
        code, o = out('morris', rec, rules=R('pieces=12'))
        self.assertEqual((code, o['phase'], o['winner'], o['reason'], o['turns']),
                         (0, 'over', None, 'full', 24))

    def test_quiet(self):
        code, o = out('morris', 'a7 b6 d7 d6 g7xb6 b6 a1 d1 b2 f2', rules=R('quiet=5'))
        self.assertEqual((code, o['reason'], o['turns']), (0, 'quiet', 10))
        code, o = out('morris', 'a7 b6 d7 d6 g7xb6 b6 a1 d1 b2', rules=R('quiet=5'))
        self.assertEqual((code, o['reason']), (0, None))
        code, o = out('morris', 'd6 b4 a7 c4 g1', max_turns=5, rules=R('quiet=5'))
        self.assertEqual(o['reason'], 'quiet')      # before the limit
        # repetition before quiet
        st = morris_from(board_of(B='a7 g7 g1 b2', R='a1 d1 f2 c3'), rules=R('quiet=8'))
        play_tokens(st, 'b2-b4 c3-c4 b4-b2 c4-c3 b2-b4 c3-c4 b4-b2 c4-c3')
        self.assertEqual((st.reason, st.turns), ('repetition', 48))

    def test_noflying(self):
        st = morris_from(board_of(B='a7 g7 g1', R='d7 d1 a1 f2'), rules=R('noflying'))
        self.assertRaises(rules.IllegalTurn, st.parse, 'a7-e4')
        st = morris_from(board_of(B='a7 g7 g1', R='d7 g4 d1 b4 f2'), to_move=1, rules=R('noflying'))
        st.play(st.parse('b4-a4'))
        self.assertEqual((st.over, st.winner, st.reason), (True, 1, 'blocked'))

    def test_pieces(self):
        for text, n in (('pieces=10', 10), ('pieces=11', 11), ('twelve', 12)):
            code, o = out('morris', '', rules=R(text))
            self.assertEqual(o['reserves'], [n, n])

    def test_headers(self):
        code, o = out('morris', '[Rules "twelve"]\na7 d7 b6 d6 c5xd7')
        self.assertEqual((code, o['rules'][:9]), (0, 'pieces=12'))
        code, o = out('morris', '[Rules "twelve"]\na7', rules=R('pieces=12,diagonals=1'))
        self.assertEqual(code, 0)
        for text, line in (('[Rules "twelve"]\na7', 1), ('[Event "x"]\n[Rules "ten"]', 2),
                           ('[Rules "nine"]\n[Rules "nine"]', 2)):
            code, o = out('morris', text, rules=R('lasker'))
            self.assertEqual((code, o['error'], o['line']), (1, 'header', line), text)
        code, o = out('morris', '[Rules  "nine" ]\n[Rules]\n[Rules nine')
        self.assertEqual((code, 'rules' in o), (0, False))


class Cli(unittest.TestCase):
    def run_cli(self, args, data=b''):
        p = subprocess.run([sys.executable, os.path.join(HERE, 'rules.py')] + args,
                           input=data, capture_output=True)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def test_usage(self):
        for args in (['replay'], ['replay', 'chess'], ['replay', 'morris', '--max-turns', '0'],
                     ['replay', 'morris', '--max-turns', '501'], ['replay', 'morris', '--max-turns', 'x'],
                     ['replay', 'morris', '--max-turns'], ['replay', 'meta', '--max-turns', '5'],
                     ['perft', 'morris'], ['perft', 'meta', '-1'], ['perft', 'meta', 'x'],
                     ['replay', 'morris', '--max-turns', '1.5'], ['bogus', 'meta'],
                     ['replay', 'morris', '--rules', 'ten'], ['replay', 'meta', '--rules', 'nine'],
                     ['perft', 'morris', '2', '--rules'], ['perft', 'morris', '2', '--rules', '']):
            code, out_, err = cli(args)
            self.assertEqual(code, 2, args)
            self.assertEqual(out_, '')
            self.assertTrue(err)

    def test_process(self):
        code, o, _ = self.run_cli(['replay', 'morris', '--max-turns', '3'], b'd6 a7 d7')
        self.assertEqual(code, 0)
        self.assertEqual(o, '{"game":"morris","board":"RB.......B..............","reserves":[7,8],'
                            '"to_move":1,"turns":3,"phase":"over","winner":null,"reason":"limit"}\n')
        code, o, _ = self.run_cli(['replay', 'meta'], b'e5 e5')
        self.assertEqual(code, 1)
        self.assertEqual(json.loads(o)['index'], 1)
        code, o, _ = self.run_cli(['perft', 'meta', '2'])
        self.assertEqual((code, o.splitlines()[-1]), (0, '720'))
        code, o, err = self.run_cli(['replay', 'morris', '--max-turns', '600'])
        self.assertEqual(code, 2)


if __name__ == '__main__':
    unittest.main()
