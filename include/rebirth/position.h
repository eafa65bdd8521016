#pragma once

#include <array>
#include <string>

#include "rebirth/bitboard.h"
#include "rebirth/move.h"
#include "rebirth/setup.h"
#include "rebirth/types.h"

namespace rebirth {

// What do_move changes and undo_move restores: a small per-ply record.
struct UndoInfo {
    Key key = 0;
    Bitboard castling = 0;
    Square ep_square = SQ_NONE;
    Square capture_square = SQ_NONE;
    Piece captured{};
    Piece moved{};  // the mover as it stood before the move (undoes promotions)
    int halfmove_clock = 0;
};

// How strictly Position::set checks a diagram.
struct SetupRules {
    bool require_white_king = true;  // false with Popeye's Option NoWk
    bool require_black_king = true;  // false with Option NoBk
};

// A playable position: mailbox plus bitboards by colour and walk, side to move, castling
// rights per king/rook square, en passant, ply and an incremental Zobrist key covering
// everything that affects legal moves. Copyable; threads each use their own copy.
class Position {
public:
    Position();
    explicit Position(const Setup& setup, const SetupRules& rules = {}, const std::string& source = "<position>");

    // Loads a diagram and checks it (king counts, side not to move in check, castling and en
    // passant fields that contradict the board). Throws InputError naming `source`.
    void set(const Setup& setup, const SetupRules& rules = {}, const std::string& source = "<position>");
    Setup to_setup() const;

    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s].empty(); }
    Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(Walk w) const { return by_walk_[w]; }
    Bitboard pieces(Color c, Walk w) const { return by_color_[c] & by_walk_[w]; }
    // The king square of c, or SQ_NONE in a kingless problem.
    Square king_square(Color c) const { return king_sq_[c]; }
    Color side_to_move() const { return side_; }
    Bitboard castling_rights() const { return castling_; }
    Square ep_square() const { return ep_square_; }
    Key key() const { return key_; }
    int ply() const { return ply_; }
    int halfmove_clock() const { return halfmove_clock_; }
    // Fairy walks stand on the board (or may appear by promotion): the generic generator runs.
    bool has_fairy() const { return fairy_; }
    // Walks a pawn may promote to: Q R B S and every fairy walk of the diagram.
    const std::array<Walk, WALK_NB>& promotion_walks() const { return promo_walks_; }
    int promotion_walk_count() const { return promo_count_; }

    // Units of colour `by` that attack square s (orthodox and fairy walks alike).
    Bitboard attackers_to(Square s, Color by) const;
    Bitboard attackers_to(Square s, Color by, Bitboard occupied) const;
    bool attacked(Square s, Color by) const { return attackers_to(s, by) != 0; }
    // c's king is attacked (false when c has no king).
    bool in_check(Color c) const;
    bool in_check() const { return in_check(side_); }

    void do_move(const Move& m, UndoInfo& undo);
    void undo_move(const Move& m, const UndoInfo& undo);

    // Full consistency check of the redundant state (bitboards vs mailbox, king squares, key).
    // Returns false and fills *why on the first inconsistency. Runs after every do/undo in
    // builds with REBIRTH_CHECKED (debug builds) and in the tests.
    bool is_consistent(std::string* why = nullptr) const;
    // The key recomputed from scratch.
    Key compute_key() const;

private:
    void clear();
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void compute_derived();

    std::array<Piece, SQUARE_NB> board_{};
    std::array<Bitboard, COLOR_NB> by_color_{};
    std::array<Bitboard, WALK_NB> by_walk_{};
    std::array<Square, COLOR_NB> king_sq_{SQ_NONE, SQ_NONE};
    std::array<Walk, WALK_NB> promo_walks_{};
    int promo_count_ = 0;
    Color side_ = WHITE;
    Bitboard castling_ = 0;
    Square ep_square_ = SQ_NONE;
    Key key_ = 0;
    int ply_ = 0;
    int halfmove_clock_ = 0;
    int fullmove_start_ = 1;
    bool fairy_ = false;
};

namespace zobrist {
Key piece_key(Piece p, Square s);
Key castling_key(Square s);
Key ep_key(Square s);
Key side_key();
}  // namespace zobrist

}  // namespace rebirth
