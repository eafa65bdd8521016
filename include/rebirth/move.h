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

// The moves a MoveList holds in place; beyond them (Super Circe's rebirths on every empty
// square of every capture: 30 captures and 40 empty squares make 1200 moves) it moves them to
// the heap.
inline constexpr int MAX_MOVES = 1024;

// A list of moves meant to live on the stack: MAX_MOVES in place, more on the heap.
class MoveList {
  public:
    MoveList() = default;
    MoveList(const MoveList& other) { *this = other; }
    MoveList& operator=(const MoveList& other) {
        if (this == &other) return *this;
        clear();
        reserve(other.size());
        std::memcpy(static_cast<void*>(data_), other.data_, sizeof(Move) * size_t(other.size()));
        end_ = data_ + other.size();
        return *this;
    }
    ~MoveList() {
        if (data_ != storage_.moves) delete[] data_;
    }
    void push(const Move& m) {
        if (end_ == limit_) [[unlikely]]
            grow();
        *end_++ = m;
    }
    void clear() { end_ = data_; }
    int size() const { return int(end_ - data_); }
    bool empty() const { return end_ == data_; }
    const Move& operator[](int i) const { return data_[i]; }
    Move& operator[](int i) { return data_[i]; }
    const Move* begin() const { return data_; }
    const Move* end() const { return end_; }
    Move* begin() { return data_; }
    Move* end() { return end_; }
    void truncate(int n) { end_ = data_ + n; }

  private:
    // Twice the room, out of the hot path.
    [[gnu::noinline, gnu::cold]] void grow() { reserve(2 * int(limit_ - data_)); }
    // Room for n moves at least, the ones held kept.
    void reserve(int n) {
        if (n <= int(limit_ - data_)) return;
        const int held = size();
        Move* bigger = new Move[size_t(n)];
        std::memcpy(static_cast<void*>(bigger), data_, sizeof(Move) * size_t(held));
        if (data_ != storage_.moves) delete[] data_;
        data_ = bigger;
        end_ = bigger + held;
        limit_ = bigger + n;
    }
    // Left uninitialised: only the moves before end_ are ever read.
    union Storage {
        Storage() {}
        Move moves[MAX_MOVES];
    };
    Storage storage_;
    Move* data_ = storage_.moves;
    Move* end_ = storage_.moves;
    Move* limit_ = storage_.moves + MAX_MOVES;
};

}  // namespace rebirth
