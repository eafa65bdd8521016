#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rebirth/types.h"

namespace rebirth {

// A plain diagram: what a FEN, a Popeye `Pieces`/`Forsyth` block or a twin describes.
// Position::set() turns it into a playable position and checks it.
struct Setup {
    std::array<Piece, SQUARE_NB> board{};
    Color side_to_move = WHITE;
    // Squares of kings and rooks that keep their castling right (e1 a1 h1 e8 a8 h8 subsets).
    Bitboard castling = 0;
    // Square skipped by the last move's pawn double step (en passant target), or SQ_NONE.
    Square ep_square = SQ_NONE;
    int halfmove_clock = 0;
    int fullmove_number = 1;
    // Units under a square (a diagram with two units on one square: the earlier one waits
    // below, as Volcanic/Parachute Circe bury and lift units), in input order.
    std::vector<std::pair<Square, Piece>> underworld;
    // Circe Parrain / ContraParrain: the unit the last move took, waiting for its rebirth after
    // the next move, and the square it was taken on (SQ_NONE: none waits). Position::set
    // takes it before the rules' LastCapture.
    Square parrain_square = SQ_NONE;
    Piece parrain_piece{};

    friend bool operator==(const Setup&, const Setup&) = default;
};

// Whether two boards hold the same units by colour and walk, their flags aside (a diagram
// does not say which units promoted).
bool same_units(const std::array<Piece, SQUARE_NB>& a, const std::array<Piece, SQUARE_NB>& b);

// Whether two positions have the same unit (colour and walk) waiting for its Parrain rebirth on
// the same square, or none waiting in both.
bool same_waiting(const Setup& a, const Setup& b);

// The game array with White to move and every castling right, as a FEN.
inline constexpr const char* kGameArrayFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Standard FEN (N = knight). Throws InputError(source, 0, offending field, reason).
Setup parse_fen(std::string_view fen, const std::string& source = "<fen>");
std::string to_fen(const Setup& setup);

// Popeye Forsyth board notation: ranks 8..1 separated by '/', piece codes of the input
// language (English S = knight, N = nightrider; German B = pawn, ...), two-letter codes
// prefixed by '.', digit runs may exceed 8 and span ranks. Fills only the board.
// Throws InputError(source, line, offending word, reason).
std::array<Piece, SQUARE_NB> parse_forsyth(std::string_view text, const std::string& source = "<forsyth>", int line = 0,
                                           Language lang = Language::English);
std::string to_forsyth(const std::array<Piece, SQUARE_NB>& board, Language lang = Language::English);

}  // namespace rebirth
