#pragma once

#include <bit>

#include "rebirth/types.h"

namespace rebirth {

inline constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
inline constexpr Bitboard RANK_1_BB = 0xFFULL;

constexpr Bitboard file_bb(int f) { return FILE_A_BB << f; }
constexpr Bitboard rank_bb(int r) { return RANK_1_BB << (8 * r); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Lookup tables, filled once by init_bitboards() (thread-safe, idempotent; Position calls it).
void init_bitboards();

namespace detail {
struct Magic {
    Bitboard mask;
    Bitboard magic;
    const Bitboard* attacks;
    unsigned shift;
    unsigned index(Bitboard occupied) const;
};
extern Magic rook_magics[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
extern Bitboard knight_attacks[SQUARE_NB];
extern Bitboard king_attacks[SQUARE_NB];
extern Bitboard between[SQUARE_NB][SQUARE_NB];  // squares strictly between two aligned squares
extern Bitboard line[SQUARE_NB][SQUARE_NB];     // the full line through two aligned squares
}  // namespace detail

inline Bitboard rook_attacks(Square s, Bitboard occ) {
    const auto& m = detail::rook_magics[s];
    return m.attacks[m.index(occ)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occ) {
    const auto& m = detail::bishop_magics[s];
    return m.attacks[m.index(occ)];
}
inline Bitboard queen_attacks(Square s, Bitboard occ) { return rook_attacks(s, occ) | bishop_attacks(s, occ); }
inline Bitboard pawn_attacks(Color c, Square s) { return detail::pawn_attacks[c][s]; }
inline Bitboard knight_attacks(Square s) { return detail::knight_attacks[s]; }
inline Bitboard king_attacks(Square s) { return detail::king_attacks[s]; }
inline Bitboard between_bb(Square a, Square b) { return detail::between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return detail::line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return (detail::line[a][b] & square_bb(c)) != 0; }

}  // namespace rebirth
