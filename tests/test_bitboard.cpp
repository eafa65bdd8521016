// The attack tables of bitboard.h against their definition: a slider attacks along each of
// its lines up to and including the first occupied square; `between` and `line` are the
// squares strictly between two aligned squares and the whole line through them.

#include <gtest/gtest.h>

#include <random>

#include "rebirth/bitboard.h"

namespace rebirth {
namespace {

struct Step {
    int df, dr;
};
constexpr Step kOrthogonal[4] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr Step kDiagonal[4] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

Bitboard walk(Square s, const Step (&steps)[4], Bitboard occupied) {
    Bitboard a = 0;
    for (const Step& d : steps)
        for (int f = file_of(s) + d.df, r = rank_of(s) + d.dr; f >= 0 && f < 8 && r >= 0 && r < 8;
             f += d.df, r += d.dr) {
            a |= square_bb(make_square(f, r));
            if (occupied & square_bb(make_square(f, r))) break;
        }
    return a;
}

TEST(Bitboard, SliderAttacksMatchTheirDefinitionOnEverySquare) {
    init_bitboards();
    std::mt19937_64 rng(20261126);
    for (int si = 0; si < SQUARE_NB; ++si) {
        const Square s = Square(si);
        for (int i = 0; i < 3000; ++i) {
            // Sparse and dense boards alike.
            Bitboard occupied = rng();
            if (i % 3 == 1) occupied &= rng();
            if (i % 3 == 2) occupied &= rng() & rng();
            ASSERT_EQ(rook_attacks(s, occupied), walk(s, kOrthogonal, occupied)) << "rook on " << si;
            ASSERT_EQ(bishop_attacks(s, occupied), walk(s, kDiagonal, occupied)) << "bishop on " << si;
        }
        EXPECT_EQ(rook_attacks(s, 0), walk(s, kOrthogonal, 0));
        EXPECT_EQ(bishop_attacks(s, ~Bitboard(0)), walk(s, kDiagonal, ~Bitboard(0)));
    }
}

TEST(Bitboard, BetweenAndLineOfAlignedSquares) {
    init_bitboards();
    for (int a = 0; a < SQUARE_NB; ++a)
        for (int b = 0; b < SQUARE_NB; ++b) {
            const Square sa = Square(a), sb = Square(b);
            const int df = file_of(sb) - file_of(sa), dr = rank_of(sb) - rank_of(sa);
            const bool is_aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if (!is_aligned) {
                EXPECT_EQ(between_bb(sa, sb), 0u) << a << " " << b;
                EXPECT_EQ(line_bb(sa, sb), 0u) << a << " " << b;
                continue;
            }
            const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
            Bitboard inside = 0, whole = 0;
            for (int f = file_of(sa) + sf, r = rank_of(sa) + sr; f != file_of(sb) || r != rank_of(sb); f += sf, r += sr)
                inside |= square_bb(make_square(f, r));
            for (int k = -7; k <= 7; ++k) {
                const int f = file_of(sa) + k * sf, r = rank_of(sa) + k * sr;
                if (f >= 0 && f < 8 && r >= 0 && r < 8) whole |= square_bb(make_square(f, r));
            }
            EXPECT_EQ(between_bb(sa, sb), inside) << a << " " << b;
            EXPECT_EQ(line_bb(sa, sb), whole) << a << " " << b;
        }
}

}  // namespace
}  // namespace rebirth
