#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rebirth {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { WHITE = 0, BLACK = 1, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Squares a1 = 0 .. h8 = 63; White moves towards higher ranks.
// clang-format off
enum Square : std::uint8_t {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NONE,
    SQUARE_NB = 64
};
// clang-format on

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr bool is_ok(Square s) { return s < SQUARE_NB; }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
// Rank r counted from colour c's own side (0 = first rank).
constexpr int relative_rank(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }
// True for the dark squares (a1 is dark).
constexpr bool is_dark(Square s) { return ((file_of(s) + rank_of(s)) & 1) == 0; }

// "e4" for E4; "-" for SQ_NONE.
std::string square_name(Square s);
// Parses "e4" (case-insensitive file letter); SQ_NONE on failure.
Square parse_square(std::string_view text);

// A walk is the way a unit moves (Popeye's word). Walks are rows of the table in walk.h;
// these are the indices of the built-in rows.
using Walk = std::uint8_t;
inline constexpr Walk NO_WALK = 0;
inline constexpr Walk KING = 1;
inline constexpr Walk QUEEN = 2;
inline constexpr Walk ROOK = 3;
inline constexpr Walk BISHOP = 4;
inline constexpr Walk KNIGHT = 5;
inline constexpr Walk PAWN = 6;
inline constexpr Walk GRASSHOPPER = 7;
inline constexpr Walk NIGHTRIDER = 8;
inline constexpr int WALK_NB = 16;  // capacity of per-walk tables
// The walks of the game array's first (and eighth) rank, file a to h.
inline constexpr Walk BACK_RANK_WALKS[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};

enum PieceFlag : std::uint8_t {
    PF_NONE = 0,
    PF_PROMOTED = 1 << 0,  // became this walk by promotion (during play or declared FrischAuf)
    PF_KAMIKAZE = 1 << 1,  // Popeye's Kamikaze attribute
    PF_ROYAL = 1 << 2,     // Popeye's Royal attribute
};

// A unit: walk, colour and attribute flags. The default value is an empty square.
struct Piece {
    Walk walk = NO_WALK;
    Color color = WHITE;
    std::uint8_t flags = PF_NONE;

    constexpr bool empty() const { return walk == NO_WALK; }
    friend constexpr bool operator==(const Piece&, const Piece&) = default;
};

constexpr Piece make_piece(Color c, Walk w, std::uint8_t flags = PF_NONE) { return Piece{w, c, flags}; }

enum class Language : std::uint8_t { English, French, German };

}  // namespace rebirth
