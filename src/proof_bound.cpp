#include "rebirth/proof_bound.h"

#include <algorithm>
#include <cstdlib>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

bool proof_bound_applies(const Position& pos, const Board& target) {
    if (pos.has_rules() || pos.has_fairy()) return false;
    for (const Piece& p : target)
        if (p.walk > PAWN) return false;
    return true;
}

// Why the fixed units are fixed:
// - a pawn on its first square that the target keeps there: pawns never return to their
//   first rank, so the target's pawn there is this one, unmoved and never captured;
// - a piece on its side's first rank that the target keeps there (same walk and colour) and
//   that has no move on a board where the fixed units are walls: it never moves, and were it
//   captured no unit of its walk could come back (the ways in are its own ways out, and no
//   pawn of its side reaches that rank), so the target would be out of reach.
Bitboard fixed_units(const Position& pos, const Board& target) {
    Bitboard fixed = 0;
    for (Color c : {WHITE, BLACK})
        for (Bitboard b = pos.pieces(c, PAWN) & rank_bb(c == WHITE ? 1 : 6); b;) {
            const Square s = pop_lsb(b);
            if (target[s].walk == PAWN && target[s].color == c) fixed |= square_bb(s);
        }
    for (bool grew = fixed != 0; grew;) {
        grew = false;
        for (Color c : {WHITE, BLACK}) {
            const Bitboard home = rank_bb(c == WHITE ? 0 : 7);
            for (Bitboard b = pos.pieces(c) & home & ~fixed; b;) {
                const Square s = pop_lsb(b);
                const Piece p = pos.piece_on(s);
                if (target[s].walk != p.walk || target[s].color != c) continue;
                if (p.walk == PAWN || ((p.walk == KING || p.walk == ROOK) && (pos.castling_rights() & home))) continue;
                if (one_move_squares(p.walk, c, s, fixed)) continue;
                fixed |= square_bb(s);
                grew = true;
            }
        }
    }
    return fixed;
}

namespace {

// Cost rows of an assignment: one per target square, one column per unit (at most 16).
using CostRow = std::array<int, 16>;

// The least total cost of giving each of `rows` rows its own column (rows <= columns <= 16),
// cost[r][c] in 0..kFar; kFar when some row can only get a column of cost kFar (otherwise
// the total may exceed kFar). When every row's cheapest column is its own, that is the
// answer; otherwise the Hungarian method, O(n^3).
int assignment(const CostRow* cost, int rows, int columns) {
    if (rows == 0) return 0;
    if (rows > columns) return kFar;
    int cheapest_sum = 0;
    unsigned taken = 0;
    bool distinct = true;
    for (int r = 0; r < rows; ++r) {
        int best = 0;
        for (int c = 1; c < columns; ++c)
            if (cost[r][c] < cost[r][best]) best = c;
        if (cost[r][best] >= kFar) return kFar;
        cheapest_sum += cost[r][best];
        distinct = distinct && !(taken & (1u << best));
        taken |= 1u << best;
    }
    if (distinct) return cheapest_sum;
    constexpr int kInf = 1 << 28, kNever = 1 << 16;  // kNever: the cost of a kFar pair
    std::array<int, 17> u{}, v{}, owner{}, way{}, min_to{};
    std::array<bool, 17> used{};
    for (int r = 1; r <= rows; ++r) {
        owner[0] = r;
        int col = 0;
        min_to.fill(kInf);
        used.fill(false);
        do {
            used[col] = true;
            const int row = owner[col];
            int delta = kInf, next = 0;
            for (int c = 1; c <= columns; ++c) {
                if (used[c]) continue;
                const int w = std::min(cost[row - 1][c - 1], kNever) - u[row] - v[c];
                if (w < min_to[c]) {
                    min_to[c] = w;
                    way[c] = col;
                }
                if (min_to[c] < delta) {
                    delta = min_to[c];
                    next = c;
                }
            }
            for (int c = 0; c <= columns; ++c) {
                if (used[c]) {
                    u[owner[c]] += delta;
                    v[c] -= delta;
                } else {
                    min_to[c] -= delta;
                }
            }
            col = next;
        } while (owner[col] != 0);
        do {
            const int prev = way[col];
            owner[col] = owner[prev];
            col = prev;
        } while (col);
    }
    int total = 0;
    for (int c = 1; c <= columns; ++c) {
        if (!owner[c]) continue;
        if (cost[owner[c] - 1][c - 1] >= kFar) return kFar;
        total += cost[owner[c] - 1][c - 1];
    }
    return total;
}

}  // namespace

int proof_moves_needed(const Position& pos, const Board& target, Color c) {
    return proof_moves_needed(pos, target, c, fixed_units(pos, target));
}

int proof_moves_needed(const Position& pos, const Board& target, Color c, Bitboard fixed) {
    // A unit already on a target square of its own walk keeps it: some least assignment
    // does (were that square given to another unit B and the unit sent to t', B going on
    // from there along the unit's way to t' costs no more: the distances obey the triangle
    // inequality). The assignment is over the other units and target squares.
    Bitboard settled = 0;
    for (Bitboard b = pos.pieces(c); b;) {
        const Square s = pop_lsb(b);
        if (target[s].walk == pos.piece_on(s).walk && target[s].color == c) settled |= square_bb(s);
    }
    // Columns: c's units on the board, with their distance rows (own walk; a pawn also as a
    // queen and as a knight after promotion); rows: the target squares of c's units.
    const Bitboard blocked = fixed;
    std::array<Square, 16> units{};
    std::array<Walk, 16> walks{};
    std::array<std::array<const std::uint8_t*, 3>, 16> rows_of{};
    int columns = 0;
    for (Bitboard b = pos.pieces(c) & ~settled; b && columns < 16; ++columns) {
        const Square s = pop_lsb(b);
        units[columns] = s;
        walks[columns] = pos.piece_on(s).walk;
        if (blocked & square_bb(s)) continue;  // a unit that never moves: its own square only
        rows_of[columns][0] = blocked_distances_as(blocked, walks[columns], c, s, walks[columns]);
        if (walks[columns] == PAWN) {
            rows_of[columns][1] = blocked_distances_as(blocked, PAWN, c, s, QUEEN);
            rows_of[columns][2] = blocked_distances_as(blocked, PAWN, c, s, KNIGHT);
        }
    }
    std::array<CostRow, 16> cost;
    int rows = 0;
    int target_units = popcount(settled);
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c || (settled & square_bb(Square(t)))) continue;
        if (++target_units > 16) return kFar;  // more target units than a side has
        CostRow& row = cost[rows++];
        for (int i = 0; i < columns; ++i) {
            const std::uint8_t* d = nullptr;
            if (walks[i] == want.walk)
                d = rows_of[i][0];
            else if (walks[i] == PAWN && want.walk != KING)
                d = rows_of[i][want.walk == KNIGHT ? 2 : 1];  // promoted: a rook or bishop as a queen
            row[i] = d ? d[t] : (units[i] == t && walks[i] == want.walk ? 0 : kFar);
        }
    }
    int total = assignment(cost.data(), rows, columns);
    if (total >= kFar) return total;
    // Castling moves king and rook with one move; a king that ends on its home square after
    // castling needs at least three moves the sum counts as none, so no saving then.
    const Square home_king = c == WHITE ? SQ_E1 : SQ_E8;
    const bool king_home = target[home_king].walk == KING && target[home_king].color == c;
    if ((pos.castling_rights() & rank_bb(c == WHITE ? 0 : 7)) && !king_home) total = std::max(0, total - 1);
    return total;
}

bool proof_captures_possible(const Position& pos, const Board& target, Color c) {
    int kept = 0;
    for (const Piece& p : target)
        if (!p.empty() && p.color == ~c) ++kept;
    const int captures = popcount(pos.pieces(~c)) - kept;
    // Rows: c's target pawns; columns: c's pawns on the board; cost: the file changes, each
    // one capture (kFar when the pawn cannot get there as a pawn).
    std::array<Square, 16> pawns{};
    int columns = 0;
    for (Bitboard b = pos.pieces(c, PAWN); b && columns < 16;) pawns[columns++] = pop_lsb(b);
    std::array<CostRow, 16> cost;
    int rows = 0;
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.walk != PAWN || want.color != c) continue;
        if (rows == 16) return false;
        CostRow& row = cost[rows++];
        for (int i = 0; i < columns; ++i) {
            const std::uint8_t* d = empty_distances_as(PAWN, c, pawns[i], PAWN);
            row[i] = d[t] >= kFar ? kFar : std::abs(file_of(pawns[i]) - file_of(Square(t)));
        }
    }
    return assignment(cost.data(), rows, columns) <= captures;
}

}  // namespace rebirth
