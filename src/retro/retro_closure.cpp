#include "rebirth/retro_closure.h"

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

#include "core/key_set.h"
#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/retro.h"
#include "rebirth/unmove.h"

namespace rebirth {

namespace {

// A position as an exact key: each square's walk (4 bits) in words 0-3, the black units'
// squares in word 4, the promoted marks' in word 5, and in word 6 the side to move (bit 0),
// the en passant square (bits 1-7), the castling rights on the first and last ranks (bits
// 8-23) and the waiting Parrain unit's square, colour and walk (bits 24-31, 32, 33-37).
using ClosureKey = std::array<std::uint64_t, 7>;

std::uint64_t square_bits(Square s) { return s == SQ_NONE ? 127 : std::uint64_t(s); }

ClosureKey position_key(const Setup& s) {
    static_assert(WALK_NB <= 16);
    ClosureKey k{};
    for (int i = 0; i < SQUARE_NB; ++i) {
        const Piece p = s.board[size_t(i)];
        if (p.empty()) continue;
        k[size_t(i / 16)] |= std::uint64_t(p.walk) << (4 * (i % 16));
        if (p.color == BLACK) k[4] |= std::uint64_t(1) << i;
        if (p.flags & PF_PROMOTED) k[5] |= std::uint64_t(1) << i;
    }
    // Castling rights name squares of the first and last ranks only (Position::load).
    assert(!(s.castling & ~(rank_bb(0) | rank_bb(7))));
    const std::uint64_t rights = (s.castling & rank_bb(0)) | (s.castling & rank_bb(7)) >> 48;
    k[6] = std::uint64_t(s.side_to_move) | square_bits(s.ep_square) << 1 | rights << 8 |
           square_bits(s.parrain_square) << 24;
    if (!s.parrain_piece.empty())
        k[6] |= std::uint64_t(s.parrain_piece.color) << 32 | std::uint64_t(s.parrain_piece.walk) << 33;
    return k;
}

// The static analysis of a position on the line (see the header).
bool statically_possible(const Setup& s, const RuleSet* rules) {
    if (effective_rules(rules)) return may_be_legal(s, 0, rules);
    return !analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square).illegal;
}

}  // namespace

bool closure_refutes(const Setup& s, long max_positions, const RuleSet* rules) {
    init_bitboards();
    if (!statically_possible(s, rules)) return true;
    WideKeySet<ClosureKey> seen;
    seen.insert(position_key(s));
    std::vector<Setup> stack{s};
    std::vector<UnMove> un;
    long kept = 1;
    while (!stack.empty()) {
        const Setup p = std::move(stack.back());
        stack.pop_back();
        if (is_game_array(p)) return false;
        un.clear();
        generate_unmoves(p, un, rules);
        for (const UnMove& u : un) {
            if (!fits_history(p, u, rules)) continue;
            Setup before = retract_keeping_rights(p, u);
            // Seen first: a position refuted once is refuted again.
            if (!seen.insert(position_key(before)) || !statically_possible(before, rules)) continue;
            if (++kept > max_positions) return false;
            stack.push_back(std::move(before));
        }
    }
    return true;
}

}  // namespace rebirth
