#include "rebirth/goal_bound.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

namespace {

// The walks a unit may have in the final position, as rows of RegionTables: the five piece
// walks, the white and the black pawn.
int row_of(Walk w, Color c) { return w == PAWN ? 5 + c : w - KING; }
constexpr Walk kRowWalk[7] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, PAWN};
constexpr Color kRowColor[7] = {WHITE, WHITE, WHITE, WHITE, WHITE, WHITE, BLACK};

// The region of a king square k: k and the squares next to it, one bit each in square
// order. Per row and square s: the region bits a unit there attacks on an empty board; per
// row and k: the squares from which it attacks some square of the region.
struct RegionTables {
    std::array<Bitboard, 64> region{};
    std::array<std::array<std::array<std::uint16_t, 64>, 64>, 7> mask{};  // [row][k][s]
    std::array<std::array<Bitboard, 64>, 7> near{};                       // [row][k]
    RegionTables() {
        for (int k = 0; k < 64; ++k) region[k] = king_attacks(Square(k)) | square_bb(Square(k));
        for (int row = 0; row < 7; ++row)
            for (int k = 0; k < 64; ++k) {
                for (Bitboard r = region[k]; r;)
                    near[row][k] |= empty_attackers(kRowWalk[row], kRowColor[row], pop_lsb(r));
                for (int s = 0; s < 64; ++s) {
                    const Bitboard a = empty_attacks(kRowWalk[row], kRowColor[row], Square(s));
                    unsigned out = 0;
                    int bit = 0;
                    for (Bitboard r = region[k]; r; ++bit)
                        if (a & square_bb(pop_lsb(r))) out |= 1u << bit;
                    mask[row][k][s] = std::uint16_t(out);
                }
            }
    }
};

const RegionTables& region_tables() {
    static const RegionTables t;
    return t;
}

// Where one unit of the attacker may end: the region squares it then attacks (bits as in
// RegionTables::mask) and the fewest moves it needs.
struct Option {
    unsigned mask;
    int cost;
};

// The largest sets of region bits of king square k (bit `check` stands for k) that the
// Calls add(mask, cost) for each square the attacker's unit on `from` may end on within
// `budget` moves: its own square at cost 0 first, then those it reaches (in its own walk, or
// promoted) near k.
template <class Add>
void unit_options(const Position& pos, Color attacker, Square k, Square from, int budget, const RegionTables& t,
                  Add&& add) {
    const Walk w = pos.piece_on(from).walk;
    add(t.mask[row_of(w, attacker)][k][from], 0);
    const Walk forms[3] = {w, w == PAWN ? QUEEN : NO_WALK, w == PAWN ? KNIGHT : NO_WALK};
    for (Walk as : forms) {
        if (as == NO_WALK) continue;
        const std::uint8_t* d = empty_distances_as(w, attacker, from, as);
        const int row = row_of(as, attacker);
        for (Bitboard b = t.near[row][k]; b;) {
            const Square s = pop_lsb(b);
            if (d[s] != 0 && d[s] <= budget) add(t.mask[row][k][s], d[s]);
        }
    }
}

// The maximal sets among `count` sets in `sets` (reordered), written to out; -1 when more
// than cap.
int maximal_sets(std::uint16_t* sets, int count, std::uint16_t* out, int cap) {
    std::sort(sets, sets + count, [](std::uint16_t x, std::uint16_t y) { return std::popcount(x) > std::popcount(y); });
    int kept = 0;
    for (int i = 0; i < count; ++i) {
        const unsigned m = sets[i];
        bool contained = false;
        for (int j = 0; j < kept && !contained; ++j) contained = (m & ~unsigned(out[j])) == 0;
        if (contained) continue;
        if (kept == cap) return -1;
        out[kept++] = std::uint16_t(m);
    }
    return kept;
}

// attackable_regions with a budget of at most one move: every unit stays but at most one,
// which makes one move; the sets are the units' own squares' sets joined, with one unit's
// replaced by where it goes.
int attackable_regions_one_move(const Position& pos, Color attacker, Square k, unsigned check, int budget,
                                unsigned castlings, std::uint16_t* out, int cap) {
    const RegionTables& t = region_tables();
    std::array<int, 16> still{};  // a unit's set where it stands; -1: not allowed
    std::array<Square, 16> square{};
    std::array<int, 17> first{};  // its moved sets: moved[first[i] .. first[i + 1])
    std::array<std::uint16_t, 1024> moved{};
    int units = 0, n = 0;
    for (Bitboard b = pos.pieces(attacker); b && units < 16;) {
        const Square from = pop_lsb(b);
        const bool king = pos.piece_on(from).walk == KING;
        square[units] = from;
        still[units] = -1;
        first[units] = n;
        unit_options(pos, attacker, k, from, budget, t, [&](unsigned mask, int cost) {
            if (king && (mask & check)) return;  // kings never stand next to each other
            if (cost == 0)
                still[units] = int(mask);
            else if (n < int(moved.size()))
                moved[n++] = std::uint16_t(mask);
        });
        ++units;
    }
    first[units] = n;
    if (n == int(moved.size()) || popcount(pos.pieces(attacker)) > 16) return -1;  // no verdict
    // Units that cannot stay (a king next to k): at most one, and it must be the one that moves.
    int must_move = -1;
    for (int i = 0; i < units; ++i)
        if (still[i] < 0) {
            if (must_move >= 0) return 0;
            must_move = i;
        }
    std::array<unsigned, 17> before{}, after{};  // the stayers' sets joined, before and after i
    for (int i = 0; i < units; ++i) before[i + 1] = before[i] | unsigned(std::max(still[i], 0));
    for (int i = units - 1; i >= 0; --i) after[i] = after[i + 1] | unsigned(std::max(still[i], 0));
    std::array<std::uint16_t, 512> sets;
    std::array<bool, 512> seen{};
    int count = 0;
    auto record = [&](unsigned m) {
        if (!seen[m]) {
            seen[m] = true;
            sets[count++] = std::uint16_t(m);
        }
    };
    if (must_move < 0) record(before[units]);
    for (int i = 0; i < units; ++i) {
        if (must_move >= 0 && i != must_move) continue;
        const unsigned others = before[i] | after[i + 1];
        for (int j = first[i]; j < first[i + 1]; ++j) record(others | moved[j]);
    }
    // Castling (bit 0 the queen's side, bit 1 the king's): king and rook move with one move.
    const int rank = attacker == WHITE ? 0 : 7;
    for (int side = 0; side < 2 && budget >= 1; ++side) {
        if (!(castlings & (1u << side))) continue;
        const Square king_from = make_square(4, rank), rook_from = make_square(side ? 7 : 0, rank);
        const Square king_to = make_square(side ? 6 : 2, rank), rook_to = make_square(side ? 5 : 3, rank);
        const unsigned king_mask = t.mask[row_of(KING, attacker)][k][king_to];
        if (king_mask & check) continue;  // kings never stand next to each other
        unsigned m = t.mask[row_of(ROOK, attacker)][k][rook_to] | king_mask;
        bool others_stay = true;
        for (int i = 0; i < units; ++i) {
            if (square[i] == king_from || square[i] == rook_from) continue;
            if (still[i] < 0) others_stay = false;
            m |= unsigned(std::max(still[i], 0));
        }
        if (others_stay) record(m);
    }
    if (count == 0) return 0;
    return maximal_sets(sets.data(), count, out, cap);
}

// The largest sets of region bits of king square k (bit `check` stands for k) that the
// attacker's units can attack at once, each ending on one square, within `budget` moves in
// all (the king never next to k): written to `out` (maximal sets only, none contained in
// another); returns their number, 0 when there is none, -1 when there are more than `cap`.
int attackable_regions(const Position& pos, Color attacker, Square k, unsigned check, int budget, std::uint16_t* out,
                       int cap) {
    constexpr std::uint8_t kNone = 255;
    const RegionTables& t = region_tables();
    // best[m]: the fewest attacker moves (so far) for the units seen to attack region bits m.
    std::array<std::uint8_t, 512> best, next, option_cost;
    best.fill(kNone);
    next.fill(kNone);
    option_cost.fill(kNone);
    best[0] = 0;
    std::array<std::uint16_t, 512> states, next_states;
    int count = 1;
    states[0] = 0;
    std::array<Option, 512> options;
    for (Bitboard units = pos.pieces(attacker); units;) {
        const Square from = pop_lsb(units);
        const bool king = pos.piece_on(from).walk == KING;
        int n = 0;
        unit_options(pos, attacker, k, from, budget, t, [&](unsigned mask, int cost) {
            if (king && (mask & check)) return;  // kings never stand next to each other
            if (option_cost[mask] == kNone) options[n++] = {mask, cost};
            if (cost < option_cost[mask]) option_cost[mask] = std::uint8_t(cost);
        });
        for (int j = 0; j < n; ++j) {
            options[j].cost = option_cost[options[j].mask];
            option_cost[options[j].mask] = kNone;
        }
        if (n == 1 && options[0].mask == 0) continue;  // changes nothing
        int next_count = 0;
        for (int i = 0; i < count; ++i) {
            const unsigned st = states[i];
            for (int j = 0; j < n; ++j) {
                const int c = best[st] + options[j].cost;
                if (c > budget) continue;
                const unsigned m = st | options[j].mask;
                if (next[m] == kNone) next_states[next_count++] = std::uint16_t(m);
                if (c < next[m]) next[m] = std::uint8_t(c);
            }
        }
        for (int i = 0; i < count; ++i) best[states[i]] = kNone;
        if (next_count == 0) return 0;
        for (int i = 0; i < next_count; ++i) {
            best[next_states[i]] = next[next_states[i]];
            next[next_states[i]] = kNone;
        }
        states = next_states;
        count = next_count;
    }
    // Maximal sets: largest first, each kept unless a kept one contains it.
    return maximal_sets(states.data(), count, out, cap);
}

// attackable_regions through a cache per thread, keyed by the attacker's units, k and
// `budget`; the sets are copied to `out` (at most kMaxRegions); -1 as attackable_regions.
constexpr int kMaxRegions = 24;

// `moves`: the attacker's moves; `castlings`: its castlings (Position::castling_sides), each
// moving king and rook with one move: with at most one move exactly so, with more as one
// move more for any unit.
int cached_attackable_regions(const Position& pos, Color attacker, Square k, unsigned check, int moves,
                              unsigned castlings, std::uint16_t* out) {
    struct Entry {
        std::array<Bitboard, 6> units{};
        std::int8_t k = -1;
        std::int8_t moves = -1;
        std::int8_t castlings = 0;
        std::int8_t count = 0;
        std::array<std::uint16_t, kMaxRegions> sets{};
    };
    constexpr size_t kEntries = 1 << 13;
    thread_local std::vector<Entry> cache(kEntries);
    std::array<Bitboard, 6> units;
    for (int w = 0; w < 6; ++w) units[w] = pos.pieces(attacker, Walk(KING + w));
    std::uint64_t h = std::uint64_t(k) * 0x9E3779B97F4A7C15ull + std::uint64_t(moves * 4 + int(castlings));
    for (Bitboard b : units) h = (h ^ b) * 0xff51afd7ed558ccdull;
    Entry& e = cache[(h >> 40) & (kEntries - 1)];
    if (e.k == k && e.moves == moves && e.castlings == int(castlings) && e.units == units) {
        std::copy(e.sets.begin(), e.sets.begin() + std::max<int>(e.count, 0), out);
        return e.count;
    }
    const int n = moves <= 1
                      ? attackable_regions_one_move(pos, attacker, k, check, moves, castlings, out, kMaxRegions)
                      : attackable_regions(pos, attacker, k, check, moves + (castlings ? 1 : 0), out, kMaxRegions);
    e.units = units;
    e.k = std::int8_t(k);
    e.moves = std::int8_t(moves);
    e.castlings = std::int8_t(castlings);
    e.count = std::int8_t(n);
    std::copy(out, out + std::max(n, 0), e.sets.begin());
    return n;
}

// The squares from s outwards in each of the 8 directions (0-3 orthogonal, 4-7 diagonal),
// s itself excluded, on an empty board.
struct Rays {
    std::array<std::array<Bitboard, 8>, 64> ray{};
    Rays() {
        constexpr int df[8] = {1, -1, 0, 0, 1, -1, 1, -1};  // d ^ 1 is the opposite of d
        constexpr int dr[8] = {0, 0, 1, -1, 1, -1, -1, 1};
        for (int s = 0; s < 64; ++s)
            for (int d = 0; d < 8; ++d)
                for (int f = s % 8 + df[d], r = s / 8 + dr[d]; f >= 0 && f < 8 && r >= 0 && r < 8;
                     f += df[d], r += dr[d])
                    ray[s][d] |= square_bb(Square(8 * r + f));
    }
};

const Rays& rays() {
    static const Rays t;
    return t;
}

// The squares a king of colour c on s reaches within `moves` moves on an empty board
// (empty_distances_from: castling included).
Bitboard king_reach(Color c, Square s, int moves) {
    struct Table {
        std::array<std::array<std::array<Bitboard, 8>, 64>, 2> within{};
        Table() {
            for (int c = 0; c < 2; ++c)
                for (int s = 0; s < 64; ++s) {
                    const std::uint8_t* row = empty_distances_from(KING, Color(c), Square(s));
                    for (int n = 0; n < 8; ++n)
                        for (int t = 0; t < 64; ++t)
                            if (row[t] <= n) within[c][s][n] |= square_bb(Square(t));
                }
        }
    };
    static const Table table;
    return moves >= 7 ? ~Bitboard(0) : table.within[c][s][moves];
}

// Stalemate: a knight, bishop, rook or queen of the defender that is never moved nor taken
// is immobile in the final position only if every square of its first step (the squares
// next to it along its lines, a knight's targets) then holds a unit of the defender, or it
// is pinned across its lines (a knight along any line, a bishop along a rank or file, a
// rook along a diagonal; a pinned queen can always move along the pin). Each empty or
// attacker-held first-step square needs its own arrival of a defending unit: one defender
// move each (two with castling). A unit that cannot be pinned in time (no square on one side
// within the defending king's reach, no pinning walk of the attacker able to reach the other
// side) and needs more arrivals than the defender has moves must be taken (one attacker
// move) or moved (one defender move), and no move does this for two such units.
bool stalemate_pieces_may_be_immobile(const Position& pos, Color defender, int attacker_moves, int defender_moves) {
    const Color attacker = ~defender;
    const Bitboard own = pos.pieces(defender);
    const int castle = defender_moves > 0 && (pos.castling_rights() & rank_bb(defender == WHITE ? 0 : 7)) ? 1 : 0;
    const int fill_budget = defender_moves + castle;
    const int dedicated = attacker_moves + defender_moves;
    Bitboard king_reach = 0;
    bool reach_known = false;
    Bitboard pin_reach[2] = {0, 0};  // orthogonal, diagonal pinners' squares within reach
    auto compute_reach = [&] {
        king_reach = rebirth::king_reach(defender, pos.king_square(defender), defender_moves);
        for (Bitboard b = pos.pieces(attacker); b;) {
            const Square s = pop_lsb(b);
            const Walk w = pos.piece_on(s).walk;
            if (w != QUEEN && w != ROOK && w != BISHOP && w != PAWN) continue;
            const std::uint8_t* row =
                w == PAWN ? empty_distances_as(PAWN, attacker, s, QUEEN) : empty_distances_from(w, attacker, s);
            if (!row) continue;
            Bitboard reach = 0;
            for (int t = 0; t < 64; ++t)
                if (row[t] <= attacker_moves) reach |= square_bb(Square(t));
            if (w != BISHOP) pin_reach[0] |= reach;
            if (w != ROOK) pin_reach[1] |= reach;
        }
        reach_known = true;
    };
    const Rays& r = rays();
    int heavy = 0;
    for (Bitboard b = own & ~pos.pieces(PAWN) & ~pos.pieces(KING); b;) {
        const Square s = pop_lsb(b);
        const Walk w = pos.piece_on(s).walk;
        Bitboard first;
        unsigned pin_dirs;  // directions of a pin that immobilises the unit
        switch (w) {
            case KNIGHT:
                first = knight_attacks(s), pin_dirs = 0xFF;
                break;
            case BISHOP:
                first = king_attacks(s) & ~rook_attacks(s, 0), pin_dirs = 0x0F;
                break;
            case ROOK:
                first = king_attacks(s) & rook_attacks(s, 0), pin_dirs = 0xF0;
                break;
            case QUEEN:
                first = king_attacks(s), pin_dirs = 0;
                break;
            default:
                return true;  // a fairy walk: no verdict
        }
        const int need = popcount(first & ~own);
        if (need <= fill_budget) continue;
        if (pin_dirs) {
            if (!reach_known) compute_reach();
            bool pinnable = false;
            for (int d = 0; d < 8 && !pinnable; ++d)
                if ((pin_dirs >> d & 1) && (r.ray[s][d] & king_reach) && (r.ray[s][d ^ 1] & pin_reach[d >> 2]))
                    pinnable = true;
            if (pinnable) continue;
        }
        if (++heavy > dedicated) return false;
    }
    return true;
}

}  // namespace

bool goal_bound_applies(const Position& pos, Goal g, Color defender) {
    return (g == Goal::Mate || g == Goal::Stalemate) && !pos.has_rules() && !pos.has_fairy() &&
           pos.king_square(defender) != SQ_NONE;
}

// Up to this many attacker moves the attacker's units are assigned exactly
// (attackable_regions); beyond it the cheaper bound alone decides.
constexpr int kExactAttackerMoves = 8;

bool goal_may_be_reached(const Position& pos, Goal g, Color defender, int attacker_moves, int defender_moves) {
    if (!goal_bound_applies(pos, g, defender)) return true;
    const Color attacker = ~defender;
    const Square king = pos.king_square(defender);
    if (g == Goal::Mate && attacker_moves < 1) return false;

    // Distance rows of the units: the attacker's (its king last) and the defender's other units.
    std::array<const std::uint8_t*, 32> attack_rows{}, block_rows{};
    int checkers = 0, attackers = 0, blockers = 0;
    for (Bitboard b = pos.pieces(attacker); b;) {
        const Square s = pop_lsb(b);
        if (pos.piece_on(s).walk == KING) continue;
        attack_rows[attackers++] = empty_attack_distances_from(pos.piece_on(s).walk, attacker, s);
    }
    checkers = attackers;
    if (pos.king_square(attacker) != SQ_NONE)
        attack_rows[attackers++] = empty_attack_distances_from(KING, attacker, pos.king_square(attacker));
    for (Bitboard b = pos.pieces(defender) & ~square_bb(king); b;) {
        const Square s = pop_lsb(b);
        block_rows[blockers++] = empty_distances_from(pos.piece_on(s).walk, defender, s);
    }
    const Bitboard home_rank = rank_bb(defender == WHITE ? 0 : 7);
    const int castling_saving = (pos.castling_rights() & home_rank) ? 1 : 0;
    const unsigned attacker_castlings = pos.castling_sides(attacker);

    // Per square, computed when first needed: the attacker's fewest moves to attack it and
    // the defender's fewest moves to occupy it (255: not computed yet).
    std::array<std::uint8_t, 64> attack{}, block{};
    attack.fill(255);
    block.fill(255);
    auto attack_cost = [&](Square s) {
        if (attack[s] == 255) {
            int best = kFar;
            for (int i = 0; i < attackers; ++i) best = std::min<int>(best, attack_rows[i][s]);
            attack[s] = std::uint8_t(best);
        }
        return int(attack[s]);
    };
    auto block_cost = [&](Square s) {
        if (block[s] == 255) {
            int best = kFar;
            for (int i = 0; i < blockers; ++i) best = std::min<int>(best, block_rows[i][s]);
            block[s] = std::uint8_t(best);
        }
        return int(block[s]);
    };

    // The fewest moves of distinct defending units (each ends on one square) blocking all of
    // `squares`; any value above `limit` may come back as limit + 1. The sum of the cheapest
    // unit per square when those units differ, else an assignment over subsets of squares.
    auto blocks_matched = [&](Bitboard squares, int limit) {
        std::array<Square, 9> sq{};
        int t = 0, sum = 0;
        Bitboard used = 0;
        bool distinct = true;
        for (Bitboard b = squares; b;) {
            const Square s = pop_lsb(b);
            sq[t++] = s;
            int best = kFar, who = -1;
            for (int i = 0; i < blockers; ++i)
                if (block_rows[i][s] < best) best = block_rows[i][s], who = i;
            sum += best;
            if (who < 0 || (used >> who & 1)) distinct = false;
            if (who >= 0) used |= Bitboard(1) << who;
        }
        if (distinct || sum > limit) return std::min(sum, limit + 1);
        std::array<std::uint8_t, 512> f, g;
        const unsigned full = (1u << t) - 1;
        f.fill(std::uint8_t(limit + 1));
        f[0] = 0;
        for (int i = 0; i < blockers; ++i) {
            g = f;
            for (unsigned mask = 0; mask < full; ++mask) {
                if (f[mask] > limit) continue;
                for (int j = 0; j < t; ++j) {
                    if (mask >> j & 1) continue;
                    const int c = f[mask] + block_rows[i][sq[j]];
                    if (c < g[mask | 1u << j]) g[mask | 1u << j] = std::uint8_t(c);
                }
            }
            f = g;
        }
        return int(f[full]);
    };

    // Stalemate: a pawn of the defender whose square ahead is empty needs a move of its own,
    // its capture, or a unit arriving ahead of it; no move does this for two such pawns
    // (castling, which moves two units, excepted).
    if (g == Goal::Stalemate) {
        const Bitboard pawns = pos.pieces(defender, PAWN);
        const Bitboard ahead = defender == WHITE ? pawns << 8 : pawns >> 8;
        const int open = popcount(ahead & ~pos.pieces());
        const int castling = pos.castling_rights() ? 1 : 0;
        if (open - castling > attacker_moves + defender_moves) return false;
        if (!stalemate_pieces_may_be_immobile(pos, defender, attacker_moves, defender_moves)) return false;
    }

    const std::uint8_t* king_rows = empty_distances_from(KING, defender, king);
    for (Bitboard ks = king_reach(defender, king, defender_moves); ks;) {
        const int k = pop_lsb(ks);
        const int walk = king_rows[k];
        if (walk > defender_moves) continue;
        if (g == Goal::Mate) {
            int check = kFar;
            for (int i = 0; i < checkers; ++i) check = std::min<int>(check, attack_rows[i][k]);
            if (check > attacker_moves) continue;
        }
        int need = walk - castling_saving;
        Bitboard open_flights = 0;
        for (Bitboard flights = king_attacks(Square(k)); flights && need <= defender_moves;) {
            const Square f = pop_lsb(flights);
            if (attack_cost(f) <= attacker_moves) continue;
            need += block_cost(f);
            open_flights |= square_bb(f);
        }
        if (need > defender_moves) continue;
        if (need - (walk - castling_saving) > 0 &&
            (walk - castling_saving) + blocks_matched(open_flights, defender_moves - (walk - castling_saving)) >
                defender_moves)
            continue;
        if (attacker_moves > kExactAttackerMoves) return true;
        // The exact assignment of the attacker's units (each ends on one square).
        const Bitboard region = region_tables().region[k];
        std::array<Square, 9> squares{};
        int i = 0;
        for (Bitboard r = region; r;) squares[i++] = pop_lsb(r);
        const unsigned check = 1u << popcount(region & (square_bb(Square(k)) - 1));
        std::array<std::uint16_t, kMaxRegions> sets;
        const int n =
            cached_attackable_regions(pos, attacker, Square(k), check, attacker_moves, attacker_castlings, sets.data());
        if (n < 0) return true;  // too many sets to keep: no verdict
        const unsigned all = (1u << popcount(region)) - 1;
        const int spare = defender_moves - (walk - castling_saving);
        for (int j = 0; j < n; ++j) {
            const unsigned m = sets[j];
            if (g == Goal::Mate && !(m & check)) continue;
            int blocks = 0;
            Bitboard open_squares = 0;
            for (unsigned open = all & ~m & ~check; open && blocks <= spare; open &= open - 1) {
                blocks += block_cost(squares[std::countr_zero(open)]);
                open_squares |= square_bb(squares[std::countr_zero(open)]);
            }
            if (blocks <= spare && (blocks == 0 || blocks_matched(open_squares, spare) <= spare)) return true;
        }
    }
    return false;
}

}  // namespace rebirth
