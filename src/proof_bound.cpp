#include "rebirth/proof_bound.h"

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

bool proof_bound_applies(const Position& pos, const Board& target) {
    if (pos.has_rules() || pos.has_fairy()) return false;
    for (const Piece& p : target)
        if (p.walk > PAWN) return false;
    return true;
}

namespace {

// The pawns that can never move again: on their first square in pos and in the target. A
// pawn never returns to its first rank, so the target's pawn there is this one, unmoved and
// never captured till the end.
Bitboard fixed_pawns(const Position& pos, const Board& target) {
    Bitboard fixed = 0;
    for (Color c : {WHITE, BLACK})
        for (Bitboard b = pos.pieces(c, PAWN) & rank_bb(c == WHITE ? 1 : 6); b;) {
            const Square s = pop_lsb(b);
            if (target[s].walk == PAWN && target[s].color == c) fixed |= square_bb(s);
        }
    return fixed;
}

// The fewest moves of unit `from` (walk w, colour c) to stand on t with walk `as` (a
// promoted rook or bishop as a queen), the `blocked` squares never entered nor crossed.
int moves_to(Bitboard blocked, Walk w, Color c, Square from, Walk as, Square t) {
    if (blocked & square_bb(from)) return from == t && w == as ? 0 : kFar;
    if (w != as && (w != PAWN || as == KING || as == PAWN)) return kFar;
    const Walk form = w == as ? w : as == KNIGHT ? KNIGHT : QUEEN;
    const std::uint8_t* d = blocked_distances_as(blocked, w, c, from, form);
    return d ? d[t] : kFar;
}

// The least total cost of giving each row its own column (rows <= columns), cost[r][c] in
// 0..kFar; kFar when some row can only get a column of cost kFar (otherwise the total may
// exceed kFar). Hungarian method, O(n^3).
int assignment(const std::vector<std::array<int, 16>>& cost, int columns) {
    const int rows = static_cast<int>(cost.size());
    if (rows == 0) return 0;
    if (rows > columns) return kFar;
    constexpr int kInf = 1 << 28, kNever = 1 << 16;  // kNever: the cost of a kFar pair
    std::vector<int> u(rows + 1, 0), v(columns + 1, 0), owner(columns + 1, 0), way(columns + 1, 0);
    for (int r = 1; r <= rows; ++r) {
        owner[0] = r;
        int col = 0;
        std::vector<int> min_to(columns + 1, kInf);
        std::vector<bool> used(columns + 1, false);
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
    // Rows: the target squares of c's units; columns: c's units on the board.
    std::array<Square, 16> units{};
    int columns = 0;
    for (Bitboard b = pos.pieces(c); b && columns < 16;) units[columns++] = pop_lsb(b);
    const Bitboard blocked = fixed_pawns(pos, target);
    std::vector<std::array<int, 16>> cost;
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c) continue;
        std::array<int, 16> row{};
        bool reachable = false;
        for (int i = 0; i < columns; ++i) {
            row[i] = moves_to(blocked, pos.piece_on(units[i]).walk, c, units[i], want.walk, Square(t));
            reachable |= row[i] < kFar;
        }
        if (!reachable) return kFar;
        cost.push_back(row);
    }
    int total = assignment(cost, columns);
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
    std::vector<std::array<int, 16>> cost;
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.walk != PAWN || want.color != c) continue;
        std::array<int, 16> row{};
        for (int i = 0; i < columns; ++i) {
            const std::uint8_t* d = empty_distances_as(PAWN, c, pawns[i], PAWN);
            row[i] = d[t] >= kFar ? kFar : std::abs(file_of(pawns[i]) - file_of(Square(t)));
        }
        cost.push_back(row);
    }
    return assignment(cost, columns) <= captures;
}

}  // namespace rebirth
