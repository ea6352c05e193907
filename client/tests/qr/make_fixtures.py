#!/usr/bin/env python3
"""Writes the QR code fixtures of client/src/model/qr/tests.rs with an independent encoder,
segno (pure Python, https://pypi.org/project/segno/), so that the Rust test proves our codes are
the ones another implementation of ISO/IEC 18004 draws, module for module, without Python.

Rerun (from the repository's root; the files are rewritten in place, and should not change):

    pip install segno==1.6.1
    python3 client/tests/qr/make_fixtures.py

Each `<name>.txt` holds one or more codes, separated by a blank line. A code is five header lines
then its rows, without the quiet zone:

    input <the bytes encoded, in hex>
    level <L|M|Q|H>
    version <1-40>  (the version drawn: segno's own choice unless the fixture forces one)
    mask <0-7>      (the mask drawn: forced, or segno's own choice)
    auto <version> <mask>  (what segno chooses by itself for these bytes at this level)
    <one line a row, in hex: the modules from the left, most significant bit first, dark = 1,
     padded with light modules to a multiple of 4>

One fix is made to segno 1.6.1 first, the one its open issue #148 ("Suspected improper padding
bit logic") proposes: when the data and terminator end on a byte, segno still adds a byte of
zeros before the pad codewords (0xEC, 0x11…), where the standard (7.4.10) adds none. Its codes
read back all the same, but they are not the standard's, and ours are: in byte mode this happens
whenever the full terminator fits, i.e. in every code that is not full to its last byte.

`tables.txt` holds, for each version and level, what segno knows of it (ISO/IEC 18004, tables
7 and 9 and annex E): `<version> <level> <bytes> <ec codewords per block> <blocks>
<alignment pattern centres>`, where bytes is how many bytes fit in byte mode.
"""

import os

import segno
from segno import consts, encoder

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = {'L': consts.ERROR_LEVEL_L, 'M': consts.ERROR_LEVEL_M, 'Q': consts.ERROR_LEVEL_Q,
          'H': consts.ERROR_LEVEL_H}

# An invitation link as the lobby makes one (docs/architecture.md, « Remote play »): the room
# (32 hex), the host's key (64 hex), the secret (32 hex).
LINK = ('https://moulin.example.org/moulin/salon#g=morris&t=100'
        '&r=0f1e2d3c4b5a69788796a5b4c3d2e1f0'
        '&k=4f2a9c1d7e6b3a5c8d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e'
        '&s=9a8b7c6d5e4f30211203f4e5d6c7b8a9').encode()
LINK_OPTIONS = ('http://127.0.0.1:41237/meta-morpion/salon#g=meta&t=100'
                '&r=00112233445566778899aabbccddeeff'
                '&k=ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100'
                '&s=0123456789abcdef0123456789abcdef&v=gur9&l=1').encode()
LONG = ('Le jeu du moulin se joue à deux sur un plateau de vingt-quatre points reliés par des '
        'lignes ; chaque joueur pose puis déplace ses neuf pions, et qui aligne trois pions '
        'forme un moulin et prend un pion adverse. ').encode() * 2


def counted(n):
    """n bytes of printable ASCII, not a repetition the masks would like too much."""
    return bytes(33 + (i * 37 + i // 7) % 94 for i in range(n))


# name: [(bytes, level, version or None, mask or None)]
FIXTURES = {
    'short': [(b'Jeu du moulin', 'M', None, None)],
    # One input drawn with each of the eight masks.
    'masks': [(b'https://example.org/moulin/salon#g=morris&c=K7M2Q9XD4HPA', 'M', None, m)
              for m in range(8)],
    'link': [(LINK, 'M', None, None), (LINK, 'L', None, None)],
    'link-options': [(LINK_OPTIONS, 'M', None, 3)],
    'long': [(LONG, 'M', None, None)],
    # Capacity edges: version 9-M's last byte (an 8-bit count), and one more (version 10, a
    # 16-bit count); the largest code of all (version 40-L, full).
    'edges': [(counted(180), 'M', None, None), (counted(181), 'M', None, None)],
    'largest': [(counted(2953), 'L', None, None)],
    # The other levels: a version larger than needed, two block sizes (5-Q), many blocks (H);
    # nothing at all.
    'levels': [(counted(60), 'Q', None, None), (counted(30), 'Q', 5, 6),
               (counted(500), 'H', None, None), (b'', 'H', None, None)],
}


def write_padding_bits(buff, version, length):
    """segno's own, with the fix of its issue #148: zeros only up to the next byte."""
    if version not in (consts.VERSION_M1, consts.VERSION_M3):
        buff.extend([0] * (-length % 8))


encoder.write_padding_bits = write_padding_bits


def make(data, level, version, mask):
    return segno.make(data, error=level, version=version, mode='byte', mask=mask,
                      boost_error=False, micro=False)


def hex_row(row):
    bits = ''.join('1' if m else '0' for m in row)
    bits += '0' * (-len(bits) % 4)
    return ''.join('%x' % int(bits[i:i + 4], 2) for i in range(0, len(bits), 4))


def code_text(data, level, version, mask):
    auto = make(data, level, None, None)
    qr = make(data, level, version, mask)
    assert qr.error == level and qr.mode == 'byte', (qr.error, qr.mode)
    lines = ['input ' + data.hex(), 'level ' + level, 'version %d' % qr.version,
             'mask %d' % qr.mask, 'auto %d %d' % (auto.version, auto.mask)]
    lines += [hex_row(row) for row in qr.matrix]
    return '\n'.join(lines) + '\n'


def tables_text():
    lines = []
    for version in range(1, 41):
        count = consts.CHAR_COUNT_INDICATOR_LENGTH[consts.MODE_BYTE][
            consts.VERSION_RANGE_01_09 if version < 10 else consts.VERSION_RANGE_10_26]
        align = consts.ALIGNMENT_POS[version - 2] if version > 1 else ()
        for name, level in LEVELS.items():
            groups = consts.ECC[version][level]
            ec = {g.num_total - g.num_data for g in groups}
            assert len(ec) == 1
            capacity = (consts.SYMBOL_CAPACITY[version][level] - 4 - count) // 8
            lines.append('%d %s %d %d %d %s' % (
                version, name, capacity, ec.pop(), sum(g.num_blocks for g in groups),
                ','.join(map(str, align)) or '-'))
    return '\n'.join(lines) + '\n'


def main():
    for name, codes in FIXTURES.items():
        with open(os.path.join(HERE, name + '.txt'), 'w') as f:
            f.write('\n'.join(code_text(*c) for c in codes))
    with open(os.path.join(HERE, 'tables.txt'), 'w') as f:
        f.write(tables_text())


if __name__ == '__main__':
    assert segno.__version__ == '1.6.1', segno.__version__
    main()
