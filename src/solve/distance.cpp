#include "rebirth/distance.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/walk_attacks.h"
#include "rebirth/bitboard.h"

namespace rebirth {

namespace {

// Table rows: the five piece walks, then the white and the black pawn.
constexpr int kRows = 7;

int row_of(Walk w, Color c) {
    switch (w) {
        case KING:
            return 0;
        case QUEEN:
            return 1;
        case ROOK:
            return 2;
        case BISHOP:
            return 3;
        case KNIGHT:
            return 4;
        case PAWN:
            return c == WHITE ? 5 : 6;
        default:
            return -1;
    }
}

// The squares a unit of table row `row` on s reaches with one move when the squares of
// `blocked` can be neither entered nor crossed.
Bitboard one_move_blocked(int row, Square s, Bitboard blocked) {
    switch (row) {
        case 0: {
            Bitboard b = king_attacks(s);
            if (s == make_square(4, 0) || s == make_square(4, 7)) {
                // Castling: the king crosses the square next to it.
                if (!(blocked & square_bb(Square(s + 1)))) b |= square_bb(Square(s + 2));
                if (!(blocked & square_bb(Square(s - 1)))) b |= square_bb(Square(s - 2));
            }
            return b & ~blocked;
        }
        case 1:
            return queen_attacks(s, blocked) & ~blocked;
        case 2:
            return rook_attacks(s, blocked) & ~blocked;
        case 3:
            return bishop_attacks(s, blocked) & ~blocked;
        case 4:
            return knight_attacks(s) & ~blocked;
        default: {
            const Color c = row == 5 ? WHITE : BLACK;
            const int r = relative_rank(c, rank_of(s));
            if (r == 7) return 0;
            const int dir = c == WHITE ? 8 : -8;
            const Square ahead = Square(s + dir);
            Bitboard b = pawn_attacks(c, s) & ~blocked;
            if (!(blocked & square_bb(ahead))) {
                b |= square_bb(ahead);
                if (r <= 1 && !(blocked & square_bb(Square(ahead + dir)))) b |= square_bb(Square(ahead + dir));
            }
            return b;
        }
    }
}

// The squares of s's file that a move from s along the file cannot reach past a cut edge of
// `cuts` (bit q: the edge between q and the square above it).
Bitboard beyond_cuts(Square s, Bitboard cuts) {
    const Bitboard file = file_bb(file_of(s)) & cuts;
    if (!file) return 0;
    Bitboard out = 0;
    const Bitboard at_or_above = file & ~((Bitboard(1) << s) - 1);
    if (at_or_above) out |= file_bb(file_of(s)) & ~((Bitboard(2) << lsb(at_or_above)) - 1);
    const Bitboard below = file & ((Bitboard(1) << s) - 1);
    if (below) out |= file_bb(file_of(s)) & ((Bitboard(2) << (63 - std::countl_zero(below))) - 1);
    return out;
}

// The edge a pawn of table row `row` on s crosses with its step: its own cut (the pawn whose
// way makes the cut crosses it, and only that pawn stands on s while the cut holds).
Bitboard own_edge(int row, Square s) {
    if (row == 5) return square_bb(s);
    if (row == 6 && s >= 8) return square_bb(Square(s - 8));
    return 0;
}

// Breadth-first distances from `from` for table row `row` with `blocked` squares and the
// file edges of `cuts` (a pawn's own edge apart); a pawn stops on its last rank.
std::array<std::uint8_t, 64> bfs(int row, Square from, Bitboard blocked, Bitboard cuts = 0) {
    std::array<std::uint8_t, 64> d;
    d.fill(kFar);
    d[from] = 0;
    cuts &= ~own_edge(row, from);
    Bitboard frontier = square_bb(from), seen = frontier;
    for (int n = 1; frontier; ++n) {
        Bitboard next = 0;
        for (Bitboard f = frontier; f;) {
            const Square s = pop_lsb(f);
            next |= one_move_blocked(row, s, blocked) & ~beyond_cuts(s, cuts);
        }
        next &= ~seen;
        seen |= next;
        for (Bitboard b = next; b;) d[pop_lsb(b)] = std::uint8_t(n);
        frontier = next;
    }
    return d;
}

// For a pawn on `from` with distances `pawn` (as a pawn, its arrival on its last rank `last`
// included), the fewest moves to each square as a unit promoted on the way that then goes on
// with distances piece(p) from the promotion square p.
template <class PieceRows>
std::array<std::uint8_t, 64> via_promotion(const std::array<std::uint8_t, 64>& pawn, int last, Square from,
                                           PieceRows&& piece) {
    std::array<std::uint8_t, 64> d;
    d.fill(kFar);
    for (int p = 0; p < 64; ++p) {
        // A pawn standing on its last rank does not move.
        if (rank_of(Square(p)) != last || pawn[p] >= kFar || p == from) continue;
        const std::uint8_t* rows = piece(Square(p));
        for (int x = 0; x < 64; ++x) d[x] = std::uint8_t(std::min<int>(d[x], std::min<int>(pawn[p] + rows[x], kFar)));
    }
    return d;
}

// The squares a unit of row `row` on s attacks on an empty board.
Bitboard attacks(int row, Square s) {
    switch (row) {
        case 0:
            return king_attacks(s);
        case 1:
            return queen_attacks(s, 0);
        case 2:
            return rook_attacks(s, 0);
        case 3:
            return bishop_attacks(s, 0);
        case 4:
            return knight_attacks(s);
        default:
            return pawn_attacks(row == 5 ? WHITE : BLACK, s);
    }
}

struct Tables {
    std::array<std::array<std::array<std::uint8_t, 64>, 64>, kRows> dist{};
    std::array<std::array<std::array<std::uint8_t, 64>, 64>, kRows> attack{};
    // Pawns (index: colour): the fewest moves to stand on a square as a pawn, and as a queen
    // or a knight promoted on the way.
    std::array<std::array<std::array<std::uint8_t, 64>, 64>, 2> pawn_only{}, as_queen{}, as_knight{}, as_rook{},
        as_bishop{};
    // Per row: the squares attacked from each square, and the squares attacking each square.
    std::array<std::array<Bitboard, 64>, kRows> attacked{}, attacking{};

    Tables() {
        init_bitboards();
        for (int row = 0; row < kRows; ++row)
            for (int s = 0; s < 64; ++s) {
                attacked[row][s] = attacks(row, Square(s));
                for (Bitboard t = attacked[row][s]; t;) attacking[row][pop_lsb(t)] |= square_bb(Square(s));
            }
        // Breadth-first search on the empty board; a pawn stops on its last rank (it promotes).
        for (int row = 0; row < kRows; ++row)
            for (int from = 0; from < 64; ++from) dist[row][from] = bfs(row, Square(from), 0);
        // Piece walks: attack distance = fewest moves to a square that attacks the target.
        for (int row = 0; row < 5; ++row)
            for (int from = 0; from < 64; ++from) {
                auto& a = attack[row][from];
                a.fill(kFar);
                for (int s = 0; s < 64; ++s) {
                    const int d = dist[row][from][s];
                    if (d >= kFar) continue;
                    for (Bitboard t = attacks(row, Square(s)); t;) {
                        const Square x = pop_lsb(t);
                        a[x] = std::uint8_t(std::min<int>(a[x], d));
                    }
                }
            }
        // Pawns: as a pawn (never standing on the last rank), or promoted on the last rank and
        // then moving and attacking as a queen or a knight.
        for (int row = 5; row < kRows; ++row) {
            const Color c = row == 5 ? WHITE : BLACK;
            const int last = c == WHITE ? 7 : 0;
            for (int from = 0; from < 64; ++from) {
                const auto pawn = dist[row][from];
                auto rows = [&](const auto& table) { return [&](Square p) { return table[p].data(); }; };
                as_queen[c][from] = via_promotion(pawn, last, Square(from), rows(dist[1]));
                as_knight[c][from] = via_promotion(pawn, last, Square(from), rows(dist[4]));
                as_rook[c][from] = via_promotion(pawn, last, Square(from), rows(dist[2]));
                as_bishop[c][from] = via_promotion(pawn, last, Square(from), rows(dist[3]));
                const auto queen_attacks = via_promotion(pawn, last, Square(from), rows(attack[1]));
                const auto knight_attacks = via_promotion(pawn, last, Square(from), rows(attack[4]));
                auto& d = dist[row][from];
                auto& a = attack[row][from];
                pawn_only[c][from] = pawn;
                a.fill(kFar);
                for (int s = 0; s < 64; ++s) {
                    d[s] = std::min({pawn[s], as_queen[c][from][s], as_knight[c][from][s]});
                    a[s] = std::min(queen_attacks[s], knight_attacks[s]);
                    if (rank_of(Square(s)) == last) pawn_only[c][from][s] = kFar;
                }
                for (int s = 0; s < 64; ++s) {
                    if (pawn[s] >= kFar || rank_of(Square(s)) == last) continue;
                    for (Bitboard t = attacks(row, Square(s)); t;) {
                        const Square x = pop_lsb(t);
                        a[x] = std::min(a[x], pawn[s]);
                    }
                }
            }
        }
    }
};

const Tables& tables() {
    static const Tables t;
    return t;
}

}  // namespace

int empty_distance(Walk w, Color c, Square from, Square to) {
    const int row = row_of(w, c);
    return row < 0 ? kFar : tables().dist[row][from][to];
}

int empty_attack_distance(Walk w, Color c, Square from, Square target) {
    const int row = row_of(w, c);
    return row < 0 ? kFar : tables().attack[row][from][target];
}

Bitboard empty_attacks(Walk w, Color c, Square s) {
    const int row = row_of(w, c);
    return row < 0 ? 0 : tables().attacked[row][s];
}

Bitboard empty_attackers(Walk w, Color c, Square s) {
    const int row = row_of(w, c);
    return row < 0 ? 0 : tables().attacking[row][s];
}

Bitboard one_move_squares(Walk w, Color c, Square s, Bitboard blocked) {
    const int row = row_of(w, c);
    return row < 0 ? 0 : one_move_blocked(row, s, blocked);
}

const std::uint8_t* empty_distances_as(Walk w, Color c, Square from, Walk as) {
    if (w == PAWN) {
        if (as == PAWN) return tables().pawn_only[c][from].data();
        if (as == QUEEN) return tables().as_queen[c][from].data();
        if (as == KNIGHT) return tables().as_knight[c][from].data();
        if (as == ROOK) return tables().as_rook[c][from].data();
        if (as == BISHOP) return tables().as_bishop[c][from].data();
        return nullptr;
    }
    return as == w ? empty_distances_from(w, c, from) : nullptr;
}

const std::uint8_t* empty_distances_from(Walk w, Color c, Square from) {
    const int row = row_of(w, c);
    return row < 0 ? nullptr : tables().dist[row][from].data();
}

const std::uint8_t* empty_attack_distances_from(Walk w, Color c, Square from) {
    const int row = row_of(w, c);
    return row < 0 ? nullptr : tables().attack[row][from].data();
}

namespace {

// The distances for one set of blocked squares, computed row by row when first asked.
// Rows 0-4 the piece walks, 5-6 pawns as pawns, 7-8 pawns as queens, 9-10 pawns as knights.
struct BlockedTables {
    std::array<std::array<std::array<std::uint8_t, 64>, 64>, 11> dist;
    std::array<std::array<bool, 64>, 11> done{};
};

const std::uint8_t* blocked_row(BlockedTables& t, Bitboard blocked, Bitboard cuts, int row, Square from) {
    if (!t.done[row][from]) {
        if (row < 7) {
            t.dist[row][from] = bfs(row, from, blocked, cuts);
            if (row >= 5) {
                const int last = row == 5 ? 7 : 0;
                for (int s = 0; s < 64; ++s)
                    if (rank_of(Square(s)) == last) t.dist[row][from][s] = kFar;
            }
        } else {
            // Promoted: the pawn's way to a square of its last rank (its arrival there is the
            // promotion), then the queen's or knight's way on.
            const int pawn_row = 5 + (row - 7) % 2;
            const int piece_row = row < 9 ? 1 : 4;
            const int last = pawn_row == 5 ? 7 : 0;
            t.dist[row][from] = via_promotion(bfs(pawn_row, from, blocked, cuts), last, from,
                                              [&](Square p) { return blocked_row(t, blocked, cuts, piece_row, p); });
        }
        t.done[row][from] = true;
    }
    return t.dist[row][from].data();
}

}  // namespace

namespace {
thread_local std::uint64_t blocked_generation = 0;
}  // namespace

std::uint64_t blocked_distances_generation() { return blocked_generation; }

const std::uint8_t* blocked_distances_as(Bitboard blocked, Walk w, Color c, Square from, Walk as) {
    return blocked_distances_as(blocked, 0, w, c, from, as);
}

const std::uint8_t* blocked_distances_as(Bitboard blocked, Bitboard cuts, Walk w, Color c, Square from, Walk as) {
    int row = -1;
    if (w == PAWN) {
        row = as == PAWN ? 5 + c : as == QUEEN ? 7 + c : as == KNIGHT ? 9 + c : -1;
    } else if (w == as) {
        row = row_of(w, c);
    }
    if (row < 0 || (blocked & square_bb(from))) return nullptr;
    // One cache per thread in two generations: the sets asked since the last turn (young)
    // and those of the turn before (old); a set of the old one asked again moves to the young
    // one. When the young one holds kSets sets, the old one is dropped and the young one
    // becomes old: the sets in use survive, the others go. The two sets asked last are found
    // without a lookup (callers ask many rows of one set in a row, and alternate between a set
    // with cuts and one without).
    struct KeyHash {
        size_t operator()(const std::pair<Bitboard, Bitboard>& k) const {
            return std::hash<Bitboard>()(k.first ^ (k.second * 0x9E3779B97F4A7C15ull));
        }
    };
    using Map = std::unordered_map<std::pair<Bitboard, Bitboard>, std::unique_ptr<BlockedTables>, KeyHash>;
    constexpr size_t kSets = 1024;
    thread_local Map young, old;
    thread_local std::array<std::pair<Bitboard, Bitboard>, 2> last_set{};
    thread_local std::array<BlockedTables*, 2> last{};
    const std::pair<Bitboard, Bitboard> key{blocked, cuts};
    if (last[0] && last_set[0] == key) return blocked_row(*last[0], blocked, cuts, row, from);
    if (last[1] && last_set[1] == key) {
        std::swap(last[0], last[1]);
        std::swap(last_set[0], last_set[1]);
        return blocked_row(*last[0], blocked, cuts, row, from);
    }
    auto it = young.find(key);
    if (it == young.end()) {
        if (young.size() >= kSets) {
            old = std::move(young);
            young = Map();
            last = {};             // they may name a set of the generation dropped
            ++blocked_generation;  // the rows of the old generation's sets are gone
        }
        auto was = old.find(key);
        if (was != old.end()) {
            it = young.emplace(key, std::move(was->second)).first;
            old.erase(was);
        } else {
            init_bitboards();  // the rows' searches use the attack tables
            it = young.emplace(key, std::make_unique_for_overwrite<BlockedTables>()).first;  // rows filled when asked
        }
    }
    last[1] = last[0];
    last_set[1] = last_set[0];
    last[0] = it->second.get();
    last_set[0] = key;
    return blocked_row(*last[0], blocked, cuts, row, from);
}

Bitboard squares_within(const std::uint8_t* distances, int n) {
    if (n < 0) return 0;
    if (n >= 255) return ~Bitboard(0);
#ifdef __SSE2__
    // Distances are below 128: a signed byte comparison with n + 1 per 16 squares.
    const __m128i limit = _mm_set1_epi8(static_cast<char>(std::min(n + 1, 127)));
    Bitboard b = 0;
    for (int i = 0; i < 4; ++i) {
        const __m128i row = _mm_loadu_si128(reinterpret_cast<const __m128i*>(distances + 16 * i));
        const unsigned mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmplt_epi8(row, limit)));
        b |= Bitboard(mask & 0xFFFF) << (16 * i);
    }
    return b;
#else
    Bitboard b = 0;
    for (int q = 0; q < 64; ++q)
        if (distances[q] <= n) b |= square_bb(Square(q));
    return b;
#endif
}

StillDistances still_distances(Bitboard kept, Bitboard takeable, Color c, Walk origin, Square target,
                               unsigned accepted) {
    static_assert(QUEEN == KING + 1 && ROOK == KING + 2 && BISHOP == KING + 3 && KNIGHT == KING + 4 &&
                  PAWN == KING + 5);
    init_bitboards();
    StillDistances out;
    auto& d = out.moves;
    d.fill(std::uint8_t(kFar));
    constexpr int kPawnRow = PAWN - KING;
    const int dir = c == WHITE ? 8 : -8;
    const int last = c == WHITE ? 7 : 0;
    std::vector<int> frontier, next;
    auto reach = [&](int state, int n) {
        if (d[state] > n) {
            d[state] = std::uint8_t(n);
            next.push_back(state);
        }
    };
    // The final states: the target in an accepted walk the unit can have (a pawn standing on
    // its last rank does not exist).
    if (!(kept & square_bb(target)))
        for (Walk w : {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN}) {
            const bool can = w == origin || (origin == PAWN && w != KING);
            if (!can || !(accepted & (1u << w)) || (w == PAWN && rank_of(target) == last)) continue;
            d[(w - KING) * 64 + target] = 0;
            frontier.push_back((w - KING) * 64 + target);
        }
    // The pawn states one move before a pawn's arrival on x (as a pawn, or promoting there).
    auto pawn_arrivals = [&](Square x, int n) {
        if (kept & square_bb(x)) return;
        const int r = relative_rank(c, rank_of(x));
        if (r < 2) return;
        const Square behind = Square(x - dir);
        reach(kPawnRow * 64 + behind, n);
        if (r == 3 && !(kept & square_bb(behind))) reach(kPawnRow * 64 + (behind - dir), n);
        if (takeable & square_bb(x))
            for (Bitboard b = pawn_attacks(~c, x); b;) reach(kPawnRow * 64 + pop_lsb(b), n);
    };
    // Backwards, breadth first: the piece walks move alike both ways (their moves on the
    // board with `kept` are symmetric), a pawn arrives by pawn_arrivals.
    for (int n = 1; !frontier.empty(); ++n) {
        next.clear();
        for (int state : frontier) {
            const int row = state / 64;
            const Square x = Square(state % 64);
            if (row == kPawnRow) {
                pawn_arrivals(x, n);
                continue;
            }
            Bitboard from = walk_targets(Walk(KING + row), x, kept);
            // Castling: the king's two-file step from its first square.
            if (row == 0 && rank_of(x) == (c == WHITE ? 0 : 7) && (file_of(x) == 2 || file_of(x) == 6)) {
                const Square home = make_square(4, rank_of(x));
                if (!(kept & square_bb(Square((x + home) / 2)))) from |= square_bb(home);
            }
            for (Bitboard b = from & ~kept; b;) reach(row * 64 + pop_lsb(b), n);
            if (origin == PAWN && rank_of(x) == last && row != 0) pawn_arrivals(x, n);
        }
        std::swap(frontier, next);
    }
    return out;
}

}  // namespace rebirth
