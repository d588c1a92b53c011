"""R1.1: the 32 cards, their names and card sets as masks."""

import pytest

from belot.cards import CARD_NAMES, FULL_DECK, cards_of, mask_of, parse_card


def test_r1_1_thirty_two_distinct_cards():
    assert len(set(CARD_NAMES)) == 32
    assert mask_of(range(32)) == FULL_DECK
    assert {n[0] for n in CARD_NAMES} == set("789TJQKA")
    assert {n[1] for n in CARD_NAMES} == set("CDHS")


def test_r1_1_parse_and_format_round_trip():
    for c, name in enumerate(CARD_NAMES):
        assert parse_card(name) == c
    assert parse_card("10h", lenient=True) == parse_card("TH")
    assert parse_card("jh", lenient=True) == parse_card("JH")


@pytest.mark.parametrize("bad", ["", "1H", "JX", "jh", "10H", "JHH"])
def test_strict_parse_rejects_non_cards(bad):
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(bad)


def test_cards_of_is_inverse_of_mask_of():
    import random

    rng = random.Random(3)
    for _ in range(200):
        cs = sorted(rng.sample(range(32), rng.randrange(33)))
        assert cards_of(mask_of(cs)) == cs


def test_cards_of_lists_every_set_bit_in_order():
    """cards_of reads a mask through three 11-bit tables; it must list exactly its set bits."""
    import random

    from belot.cards import FULL_DECK, cards_of

    rng = random.Random(4)
    for mask in [0, FULL_DECK, 1 << 31, 1 << 10, 1 << 11, 1 << 21, 1 << 22] + [rng.getrandbits(32) for _ in range(20000)]:
        assert cards_of(mask) == [c for c in range(32) if mask >> c & 1]
