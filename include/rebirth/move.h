#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "rebirth/types.h"

namespace rebirth {

enum class MoveKind : std::uint8_t { Normal, Promotion, EnPassant, Castling };

// A move as a small value. from/to are the mover's departure and arrival squares (castling:
// the king's). The remaining fields carry the choices a move makes beyond from/to: the
// promotion walk, and for Circe rules the chosen rebirth square/walk and a third square
// (e.g. Mars Circe's virtual departure). The effects that follow from these choices are
// recorded by do_move in the undo record.
struct Move {
    Square from = SQ_NONE;
    Square to = SQ_NONE;
    MoveKind kind = MoveKind::Normal;
    Walk promotion = NO_WALK;
    Square rebirth = SQ_NONE;
    Walk rebirth_walk = NO_WALK;
    Square extra = SQ_NONE;
    std::uint8_t spare = 0;

    constexpr bool is_null() const { return from == SQ_NONE; }
    friend constexpr bool operator==(const Move&, const Move&) = default;
};
static_assert(sizeof(Move) == 8);

// The square of the unit m captures (when it captures), m made by `mover`: m.to, or for en
// passant the square behind it.
constexpr Square capture_square(const Move& m, Color mover) {
    return m.kind == MoveKind::EnPassant ? Square(mover == WHITE ? m.to - 8 : m.to + 8) : m.to;
}

// The corner of the rook that castling m moves (the king from m.from towards it).
constexpr Square castling_corner(const Move& m) { return make_square(m.to > m.from ? 7 : 0, rank_of(m.from)); }

// The squares m moves a unit from or onto (castling: the rook's corner too; en passant: not
// the taken pawn's square).
constexpr Bitboard touched_squares(const Move& m) {
    return square_bb(m.from) | square_bb(m.to) | (m.kind == MoveKind::Castling ? square_bb(castling_corner(m)) : 0);
}

inline constexpr int MAX_MOVES = 1024;

// A fixed-capacity list of moves, meant to live on the stack.
class MoveList {
  public:
    void push(const Move& m) { storage_.moves[size_++] = m; }
    void clear() { size_ = 0; }
    int size() const { return size_; }
    bool empty() const { return size_ == 0; }
    const Move& operator[](int i) const { return storage_.moves[i]; }
    Move& operator[](int i) { return storage_.moves[i]; }
    const Move* begin() const { return storage_.moves; }
    const Move* end() const { return storage_.moves + size_; }
    Move* begin() { return storage_.moves; }
    Move* end() { return storage_.moves + size_; }
    void truncate(int n) { size_ = n; }

  private:
    // Left uninitialised: only the first size_ entries are ever read.
    union Storage {
        Storage() {}
        Move moves[MAX_MOVES];
    };
    Storage storage_;
    int size_ = 0;
};

}  // namespace rebirth
