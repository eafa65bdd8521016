#pragma once

#include "rebirth/bitboard.h"
#include "rebirth/types.h"
#include "rebirth/walk.h"

namespace rebirth {

// Square reached from s by one step of v, or SQ_NONE off the board.
inline Square step(Square s, Vec v) {
    int f = file_of(s) + v.df, r = rank_of(s) + v.dr;
    return on_board(f, r) ? make_square(f, r) : SQ_NONE;
}

// Calls visit(to, is_capture_candidate) for every square a unit of generic walk w on `from`
// could move to given `occ`, before colour filtering: leapers and riders report every square
// reached (occupied ones end a ride), hoppers report the landing square after one hurdle.
template <typename Visit>
void for_each_walk_target(Walk w, Square from, Bitboard occ, Visit&& visit) {
    const WalkInfo& info = walk_info(w);
    for (int i = 0; i < info.nvecs; ++i) {
        Vec v = info.vecs[i];
        switch (info.kind) {
            case WalkKind::Leaper:
            case WalkKind::King: {
                Square t = step(from, v);
                if (t != SQ_NONE) visit(t);
                break;
            }
            case WalkKind::Rider: {
                for (Square t = step(from, v); t != SQ_NONE; t = step(t, v)) {
                    visit(t);
                    if (occ & square_bb(t)) break;
                }
                break;
            }
            case WalkKind::Hopper: {
                Square t = step(from, v);
                while (t != SQ_NONE && !(occ & square_bb(t))) t = step(t, v);
                if (t == SQ_NONE) break;
                Square land = step(t, v);
                if (land != SQ_NONE) visit(land);
                break;
            }
            default:
                break;
        }
    }
}

// Whether a unit of generic (non-pawn) walk w on `from` attacks `to` given `occ`.
inline bool walk_attacks_square(Walk w, Square from, Square to, Bitboard occ) {
    bool hit = false;
    for_each_walk_target(w, from, occ, [&](Square t) { hit |= (t == to); });
    return hit;
}

// Targets of a non-pawn unit of walk w on `from` with occupancy `occ` (colour not filtered).
// For the orthodox walks, also the squares from which such a unit reaches `from`.
inline Bitboard walk_targets(Walk w, Square from, Bitboard occ) {
    switch (w) {
        case KING:
            return king_attacks(from);
        case KNIGHT:
            return knight_attacks(from);
        case BISHOP:
            return bishop_attacks(from, occ);
        case ROOK:
            return rook_attacks(from, occ);
        case QUEEN:
            return queen_attacks(from, occ);
        default: {
            Bitboard t = 0;
            for_each_walk_target(w, from, occ, [&](Square s) { t |= square_bb(s); });
            return t;
        }
    }
}

// The squares a unit of walk w and colour c on s attacks with occupancy occ: a pawn's two
// diagonal squares ahead (none from its own first rank: orthodox rules), walk_targets for
// the other walks.
inline Bitboard unit_attack_set(Walk w, Color c, Square s, Bitboard occ) {
    if (w != PAWN) return walk_targets(w, s, occ);
    return relative_rank(c, rank_of(s)) != 0 ? pawn_attacks(c, s) : 0;
}

}  // namespace rebirth
