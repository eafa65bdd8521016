#pragma once

#include <array>

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

// The number of steps of v from `from` to `to` (df, dr apart), 0 when `to` is not on that
// ray.
inline int steps_along(Vec v, int df, int dr) {
    int k = 0;
    if (v.df != 0) {
        if (df % v.df != 0) return 0;
        k = df / v.df;
    } else if (df != 0) {
        return 0;
    }
    if (v.dr != 0) {
        if (dr % v.dr != 0) return 0;
        const int kr = dr / v.dr;
        if (v.df != 0 && kr != k) return 0;
        k = kr;
    } else if (dr != 0) {
        return 0;
    }
    return k > 0 ? k : 0;
}

// The squares a unit of generic walk w on `from` could attack on some occupancy: every
// square of its rays (for hoppers beyond the first one), its leaps. A table built once.
inline Bitboard walk_reach(Walk w, Square from) {
    static const auto table = [] {
        std::array<std::array<Bitboard, SQUARE_NB>, WALK_NB> t{};
        for (int wi = PAWN + 1; wi < walk_count() && wi < WALK_NB; ++wi) {
            const WalkInfo& info = walk_info(Walk(wi));
            for (int si = 0; si < SQUARE_NB; ++si)
                for (int i = 0; i < info.nvecs; ++i) {
                    const Vec v = info.vecs[i];
                    const bool ray = info.kind == WalkKind::Rider || info.kind == WalkKind::Hopper;
                    int k = 1;
                    for (Square sq = step(Square(si), v); sq != SQ_NONE; sq = step(sq, v), ++k) {
                        if (info.kind != WalkKind::Hopper || k >= 2) t[wi][si] |= square_bb(sq);
                        if (!ray) break;
                    }
                }
        }
        return t;
    }();
    return table[w][from];
}

// Whether a unit of generic (non-pawn) walk w on `from` attacks `to` given `occ`: the
// squares for_each_walk_target reports, found from the ray that leads to `to` only (the
// squares between two board squares on a straight line are on the board).
inline bool walk_attacks_square(Walk w, Square from, Square to, Bitboard occ) {
    if (!(walk_reach(w, from) & square_bb(to))) return false;
    const WalkInfo& info = walk_info(w);
    const int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    for (int i = 0; i < info.nvecs; ++i) {
        const Vec v = info.vecs[i];
        const int k = steps_along(v, df, dr);
        if (k == 0) continue;
        if (info.kind == WalkKind::Leaper || info.kind == WalkKind::King) {
            if (k == 1) return true;
            continue;
        }
        // The first occupied square of the ray before `to` (k: none). A rider needs none, a
        // hopper the one just before `to` (its hurdle).
        const int step = v.dr * 8 + v.df;
        int first = 1;
        while (first < k && !(occ & square_bb(Square(from + first * step)))) ++first;
        if (info.kind == WalkKind::Rider && first == k) return true;
        if (info.kind == WalkKind::Hopper && k >= 2 && first == k - 1) return true;
    }
    return false;
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
