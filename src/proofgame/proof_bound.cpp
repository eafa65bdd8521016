#include "rebirth/proof_bound.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "proofgame/cache_slot.h"
#include "rebirth/assignment.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/legality.h"

namespace rebirth {

bool proof_bound_applies(const Position& pos, const Board& target) {
    if (pos.has_rules() || pos.has_fairy()) return false;
    for (const Piece& p : target)
        if (p.walk > PAWN) return false;
    return true;
}

namespace {

// The squares a pawn of colour c on `from` can stand on later as a pawn (steps, double steps
// and diagonal steps, never entering a square of `walls`), `from` included.
Bitboard pawn_reach(Color c, Square from, Bitboard walls) {
    Bitboard reach = square_bb(from), front = reach;
    while (front) {
        const Bitboard up = c == WHITE ? front << 8 : front >> 8;
        const Bitboard next = (up | ((up & ~FILE_A_BB) >> 1) | ((up & ~file_bb(7)) << 1)) & ~walls & ~reach;
        reach |= next;
        front = next;
    }
    return reach;
}

// The captures c can still make: the units of ~c on the board beyond those of the target
// (negative when the target has more).
int takes_left(const Position& pos, const Board& target, Color c) {
    int takes = popcount(pos.pieces(~c));
    for (const Piece& p : target)
        if (!p.empty() && p.color == ~c) --takes;
    return takes;
}

// What the ways of giving each side's target pawn squares their own pawns tell (file_cuts):
// the file edges no unit crosses, and the pawns that stand on a target pawn square they fill
// in every way (they never move again).
struct PawnWays {
    Bitboard cuts = 0;
    Bitboard stationary = 0;
};
PawnWays pawn_ways(const Position& pos, const Board& target, Bitboard fixed);

}  // namespace

// Why the fixed units are fixed:
// - a pawn on its first square that the target keeps there: pawns never return to their
//   first rank, so the target's pawn there is this one, unmoved and never captured;
// - a pawn on a square where the target has a pawn of its side, when no other pawn of its
//   side that is not fixed can get there (pawns never go back, and a promoted unit is never a
//   pawn again): were it to leave or be taken, nothing could fill the square;
// - a piece on its side's first rank that the target keeps there (same walk and colour) and
//   that has no move on a board where the fixed units are walls: it never moves, and were it
//   captured no unit of its walk could come back (the ways in are its own ways out, and no
//   pawn of its side reaches that rank), so the target would be out of reach.
// - a pawn on a target pawn square of its side that it fills in every way of giving those
//   squares their own pawns within the captures its side has left (file_cuts): the same
//   reason, counting the captures.
// Each is justified by the fixed units found before it, so the rules are applied until none
// adds a unit.
Bitboard fixed_units(const Position& pos, const Board& target) { return fixed_units(pos, target, 0); }

Bitboard fixed_units(const Position& pos, const Board& target, Bitboard known) {
    Bitboard fixed = known;
    for (Color c : {WHITE, BLACK})
        for (Bitboard b = pos.pieces(c, PAWN) & rank_bb(c == WHITE ? 1 : 6); b;) {
            const Square s = pop_lsb(b);
            if (target[s].walk == PAWN && target[s].color == c) fixed |= square_bb(s);
        }
    for (bool grew = true; grew;) {
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
            // The pawns on target pawn squares of their side, each against the squares the
            // other pawns reach (prefix and suffix unions of the pawns' reaches).
            const Bitboard pawns = pos.pieces(c, PAWN) & ~fixed;
            Bitboard on_target = 0;
            for (Bitboard b = pawns; b;) {
                const Square s = pop_lsb(b);
                if (target[s].walk == PAWN && target[s].color == c) on_target |= square_bb(s);
            }
            if (!on_target) continue;
            std::array<Square, 16> sq{};
            std::array<Bitboard, 17> before{}, after{};
            int n = 0;
            for (Bitboard b = pawns; b && n < 16; ++n) {
                sq[n] = pop_lsb(b);
                after[n] = pawn_reach(c, sq[n], fixed);
                before[n + 1] = before[n] | after[n];
            }
            for (int i = n - 1; i >= 0; --i) after[i] |= after[i + 1];
            for (int i = 0; i < n; ++i) {
                if (!(on_target & square_bb(sq[i]))) continue;
                if ((before[i] | after[i + 1]) & square_bb(sq[i])) continue;  // another pawn gets there
                fixed |= square_bb(sq[i]);
                grew = true;
            }
        }
        // Once the rules above add nothing: the pawns the capture counts keep on their squares.
        if (!grew) {
            if (const Bitboard more = pawn_ways(pos, target, fixed).stationary & ~fixed) {
                fixed |= more;
                grew = true;
            }
        }
    }
    return fixed;
}

bool corridors_allow(const Position& pos, const Board& target, Bitboard fixed) {
    for (Color c : {WHITE, BLACK}) {
        const int rank = c == WHITE ? 0 : 7;
        std::array<Corridor, 4> runs;
        const int n = first_rank_corridors(c, fixed, runs);
        if (n == 0) continue;
        std::array<Piece, 8> now{}, wanted{};
        for (int h = 0; h < 8; ++h) {
            now[size_t(h)] = pos.piece_on(make_square(h, rank));
            wanted[size_t(h)] = target[make_square(h, rank)];
        }
        for (int k = 0; k < n; ++k)
            if (!corridor_order_kept(now, wanted, runs[size_t(k)], pos.castling_sides(c))) return false;
    }
    return true;
}

UnitRows unit_rows(Bitboard fixed, Walk w, Color c, Square s) { return unit_rows(fixed, 0, w, c, s); }

UnitRows unit_rows(Bitboard fixed, Bitboard cuts, Walk w, Color c, Square s) {
    UnitRows rows{};
    if (fixed & square_bb(s)) return rows;
    rows[0] = blocked_distances_as(fixed, cuts, w, c, s, w);
    if (w == PAWN) {
        rows[1] = blocked_distances_as(fixed, cuts, PAWN, c, s, QUEEN);
        rows[2] = blocked_distances_as(fixed, cuts, PAWN, c, s, KNIGHT);
    }
    return rows;
}

Bitboard file_cuts(const Position& pos, const Board& target, Bitboard fixed) {
    return pawn_ways(pos, target, fixed).cuts;
}

namespace {

PawnWays compute_pawn_ways(const Position& pos, const Board& target, Bitboard fixed);

PawnWays pawn_ways(const Position& pos, const Board& target, Bitboard fixed) {
    // Remembered per thread: the value depends only on both sides' pawns and numbers of
    // units, the target's pawns and numbers of units, and `fixed`, which make the key (the
    // whole key is compared).
    struct Entry {
        std::array<Bitboard, 6> key{};
        PawnWays ways;
        bool used = false;
    };
    constexpr std::size_t kSize = 1024;
    thread_local std::array<Entry, kSize> memo{};
    // The target's part of the key, worked out again only for another target.
    thread_local Board last_target{};
    thread_local std::array<Bitboard, 3> target_key{};
    thread_local bool known = false;
    static_assert(sizeof(Board) == SQUARE_NB * sizeof(Piece) && std::is_trivially_copyable_v<Piece>);
    if (!known || std::memcmp(last_target.data(), target.data(), sizeof(Board)) != 0) {
        last_target = target;
        known = true;
        target_key = {};
        int counts[COLOR_NB] = {0, 0};
        for (int s = 0; s < SQUARE_NB; ++s) {
            const Piece p = target[s];
            if (p.empty()) continue;
            ++counts[p.color];
            if (p.walk == PAWN) target_key[p.color] |= square_bb(Square(s));
        }
        target_key[2] = Bitboard(counts[WHITE]) << 16 | Bitboard(counts[BLACK]) << 24;
    }
    std::array<Bitboard, 6> key{};
    key[0] = pos.pieces(WHITE, PAWN);
    key[1] = pos.pieces(BLACK, PAWN);
    key[2] = target_key[0];
    key[3] = target_key[1];
    key[4] = fixed;
    key[5] = Bitboard(popcount(pos.pieces(WHITE))) | Bitboard(popcount(pos.pieces(BLACK))) << 8 | target_key[2];
    Entry& e = memo[cache_slot(key, kSize)];
    if (e.used && e.key == key) return e.ways;
    e.key = key;
    e.ways = compute_pawn_ways(pos, target, fixed);
    e.used = true;
    return e.ways;
}

PawnWays compute_pawn_ways(const Position& pos, const Board& target, Bitboard fixed) {
    // Every edge (and no stationary pawn) for positions no game goes on from.
    constexpr PawnWays kAllEdges{~Bitboard(0) >> 8, 0};
    PawnWays out;
    Bitboard& cuts = out.cuts;
    for (Color c : {WHITE, BLACK}) {
        const int up = c == WHITE ? 8 : -8;
        // c's pawns that may still move, and the target pawn squares of c they must fill.
        std::array<Square, 16> pawn{};
        std::array<Bitboard, 16> reach{};
        int n = 0;
        for (Bitboard b = pos.pieces(c, PAWN) & ~fixed; b && n < 16; ++n) {
            pawn[size_t(n)] = pop_lsb(b);
            reach[size_t(n)] = pawn_reach(c, pawn[size_t(n)], fixed);
        }
        std::array<Square, 16> want{};
        int m = 0;
        for (int t = 0; t < SQUARE_NB; ++t)
            if (target[t].walk == PAWN && target[t].color == c && !(fixed & square_bb(Square(t)))) {
                if (m == 16) return kAllEdges;  // more target pawns than a side has: no game
                want[size_t(m++)] = Square(t);
            }
        if (m > n) return kAllEdges;  // fewer pawns than target pawn squares to fill: no game
        if (m == 0) continue;
        // The ways of giving every such square its own pawn, the file changes within the
        // captures c has left: a way exists when the least total file change is within them,
        // and P fills Y in every way when none is left without the pair (Y, P).
        const int takes = takes_left(pos, target, c);
        std::array<AssignmentRow, 16> cost{};
        for (int t = 0; t < m; ++t)
            for (int i = 0; i < n; ++i) {
                const int df = std::abs(file_of(want[size_t(t)]) - file_of(pawn[size_t(i)]));
                cost[size_t(t)][size_t(i)] = (reach[size_t(i)] & square_bb(want[size_t(t)])) && df <= takes ? df : kFar;
            }
        if (min_cost_assignment(cost.data(), m, n) > takes) return kAllEdges;  // no way: no game
        for (int t = 0; t < m; ++t) {
            const Square y = want[size_t(t)];
            for (int i = 0; i < n; ++i) {
                const Square x = pawn[size_t(i)];
                if ((x != y && x + up != y) || cost[size_t(t)][size_t(i)] >= kFar) continue;
                const int kept = cost[size_t(t)][size_t(i)];
                cost[size_t(t)][size_t(i)] = kFar;
                const bool only = min_cost_assignment(cost.data(), m, n) > takes;
                cost[size_t(t)][size_t(i)] = kept;
                if (!only) continue;
                if (x == y) {  // it never moves again: no unit passes it along the file
                    cuts |= (y >= 8 ? square_bb(Square(y - 8)) : 0) | (y < 56 ? square_bb(y) : 0);
                    out.stationary |= square_bb(y);
                } else {
                    cuts |= square_bb(c == WHITE ? x : y);
                }
            }
        }
    }
    return out;
}

}  // namespace

const std::uint8_t* row_for(const UnitRows& rows, Walk w, Walk want) {
    if (w == want) return rows[0];
    if (w == PAWN && want != KING) return rows[want == KNIGHT ? 2 : 1];
    return nullptr;
}

int proof_moves_needed(const Position& pos, const Board& target, Color c) {
    return proof_moves_needed(pos, target, c, fixed_units(pos, target));
}

Bitboard settled_units(const Position& pos, const Board& target, Color c) {
    Bitboard settled = 0;
    for (Bitboard b = pos.pieces(c); b;) {
        const Square s = pop_lsb(b);
        if (target[s].walk == pos.piece_on(s).walk && target[s].color == c) settled |= square_bb(s);
    }
    return settled;
}

namespace {

// What proof_moves_needed charges a unit of c, for one position, target and set of fixed
// units: its fewest moves to each target square of c and to each square where a capture that
// ~c's pawns must make can land. Shared by proof_moves_needed and MoveProgress, which must
// count alike.
class NeedModel {
  public:
    // One unit: its square, walk, distance rows and (a pawn, when c cannot take on every
    // file) its promotion squares within reach of the captures left.
    struct Promotion {
        int moves;
        const std::uint8_t* queen;
        const std::uint8_t* knight;
    };
    struct Unit {
        Square square = SQ_NONE;
        Walk walk = NO_WALK;
        UnitRows rows{};
        std::array<Promotion, 8> promotions{};
        int n_promotions = 0;
    };

    NeedModel(const Position& pos, const Board& target, Color c, Bitboard fixed)
        : c_(c), fixed_(fixed), cuts_(file_cuts(pos, target, fixed)), castling_helps_(pos.castling_sides(c) != 0) {
        // A pawn changes file only by taking, and c takes at most the units of ~c beyond
        // those of the target: a pawn whose way needs more file changes never gets there (as
        // a pawn, or to its promotion square).
        takes_ = std::max(takes_left(pos, target, c), 0);
        limited_ = takes_ < 7;
        // Captures the other side's pawns must still make land on units of c, per way of
        // assigning ~c's pawns to their target squares; with too many ways, the captures
        // every way makes (pawn_capture_slots).
        if (!pawn_capture_ways(pos, target, ~c, fixed, ways_, 24)) {
            std::array<Bitboard, 8> slots{};
            PawnCaptureWay all;
            all.slots = pawn_capture_slots(pos, target, ~c, fixed, slots);
            std::copy(slots.begin(), slots.end(), all.squares.begin());
            ways_.assign(1, all);
        }
    }

    const std::vector<PawnCaptureWay>& ways() const { return ways_; }
    Bitboard fixed() const { return fixed_; }

    Unit unit(Square s, Walk w) const {
        Unit u;
        u.square = s;
        u.walk = w;
        u.rows = unit_rows(fixed_, cuts_, w, c_, s);
        if (!limited_ || w != PAWN || !u.rows[0]) return u;
        const int last = c_ == WHITE ? 7 : 0, seventh = c_ == WHITE ? 6 : 1;
        const int file = file_of(s);
        for (int f = std::max(0, file - takes_); f <= std::min(7, file + takes_); ++f) {
            const Square p8 = make_square(f, last);
            if (fixed_ & square_bb(p8)) continue;
            int reach = kFar;
            for (int g = std::max(0, f - 1); g <= std::min(7, f + 1); ++g)
                reach = std::min<int>(reach, u.rows[0][make_square(g, seventh)]);
            if (reach >= kFar) continue;
            u.promotions[size_t(u.n_promotions++)] = {reach + 1,
                                                      blocked_distances_as(fixed_, cuts_, QUEEN, c_, p8, QUEEN),
                                                      blocked_distances_as(fixed_, cuts_, KNIGHT, c_, p8, KNIGHT)};
        }
        return u;
    }

    // The fewest moves of u to stand on t with walk `want` (`castles`: c may still castle;
    // by default whether it may in the model's position).
    int unit_cost(const Unit& u, Walk want, int t) const { return unit_cost(u, want, t, castling_helps_); }
    int unit_cost(const Unit& u, Walk want, int t, bool castles) const {
        const int d = raw_cost(u, want, t);
        // The king's distances count castling as one king move; without a castling right
        // left c never castles again, and its king walks a square a move.
        if (u.walk == KING && !castles)
            return std::max(d, std::max(std::abs(file_of(u.square) - file_of(Square(t))),
                                        std::abs(rank_of(u.square) - rank_of(Square(t)))));
        return d;
    }

    // The fewest moves of u to stand where a capture of `slot` takes it (kFar for a king).
    int slot_cost(const Unit& u, Bitboard slot) const {
        if (u.walk == KING) return kFar;                                      // a king is never taken
        if (!u.rows[0]) return (slot & square_bb(u.square)) ? 0 : int(kFar);  // a fixed unit never moves
        const Bitboard ep_rank = rank_bb(c_ == WHITE ? 2 : 5);                // where ~c's en passant captures land
        int best = kFar;
        for (Bitboard q = slot; q;) {
            const Square sq = pop_lsb(q);
            if (u.walk == PAWN) {
                for (Walk w : {PAWN, QUEEN, KNIGHT}) best = std::min(best, raw_cost(u, w, sq));
                // En passant: the pawn taken stands beside the landing square, behind it.
                if (ep_rank & square_bb(sq)) best = std::min(best, raw_cost(u, PAWN, c_ == WHITE ? sq + 8 : sq - 8));
            } else {
                best = std::min(best, raw_cost(u, u.walk, sq));
            }
        }
        return best;
    }

  private:
    int raw_cost(const Unit& u, Walk want, int t) const {
        const std::uint8_t* d = row_for(u.rows, u.walk, want);
        if (!d) return u.square == t && u.walk == want ? 0 : kFar;
        if (u.walk != PAWN || !limited_) return d[t];
        if (want == PAWN) return std::abs(file_of(Square(t)) - file_of(u.square)) > takes_ ? kFar : d[t];
        // Promoted: through a promotion square within `takes` files.
        int best = kFar;
        for (int k = 0; k < u.n_promotions; ++k) {
            const std::uint8_t* piece = want == KNIGHT ? u.promotions[size_t(k)].knight : u.promotions[size_t(k)].queen;
            if (piece) best = std::min(best, u.promotions[size_t(k)].moves + piece[t]);
        }
        return std::max<int>(d[t], std::min(best, kFar));
    }

    Color c_;
    Bitboard fixed_;
    Bitboard cuts_;  // file_cuts
    bool castling_helps_;
    int takes_ = 0;
    bool limited_ = false;
    std::vector<PawnCaptureWay> ways_;
};

}  // namespace

// What MoveProgress keeps of one proof_moves_needed computation: the assignments' rows,
// columns and, per way of ~c's pawn captures that has an assignment, its dual solution.
struct NeedRecord {
    struct Way {
        int slots = 0;
        std::array<Bitboard, 16> squares{};
        AssignmentDuals duals;
        int dual_sum = 0;      // the dual solution's sum: at most the assignment's total
        int target_sum = 0;    // the same without the capture rows' prices (the target squares' rows alone)
        size_t slot_rows = 0;  // where its capture rows' costs begin in NeedRecord::slot_costs
    };
    std::array<NeedModel::Unit, 16> units{};
    std::array<AssignmentRow, 16> target_costs{};  // the target squares' rows (the same in every way)
    std::vector<AssignmentRow> slot_costs;         // each way's capture rows, one after the other
    int columns = 0;
    std::array<std::pair<Walk, Square>, 16> wanted{};  // the rows: c's unsettled target units
    int rows = 0;
    std::vector<Way> ways;
    int castling = 0;
};

namespace {

// proof_moves_needed, with `record` (when given) filled for MoveProgress; with `evicted` (a
// unit of c on a target square of its walk), over the games where that unit does not end on
// that square (another unit fills it; the evicted one goes elsewhere or is taken).
int moves_needed(const Position& pos, const Board& target, Color c, Bitboard fixed, const NeedModel& model,
                 NeedRecord* record, Square evicted = SQ_NONE) {
    // A unit already on a target square of its own walk keeps it: some least assignment
    // does (were that square given to another unit B and the unit sent to t', B going on
    // from there along the unit's way to t' costs no more: the distances obey the triangle
    // inequality). The assignment is over the other units and target squares.
    Bitboard settled = settled_units(pos, target, c);
    // Evicted: the units of its walk are columns too, since a least assignment may now send
    // the evicted unit to another's square and that unit to the evicted square.
    if (evicted != SQ_NONE) settled &= ~pos.pieces(c, pos.piece_on(evicted).walk);
    // Columns: c's units on the board, with their distance rows (own walk; a pawn also as a
    // queen and as a knight after promotion); rows: the target squares of c's units.
    // A unit that never moves (fixed) has no rows: its own square only.
    NeedRecord local;
    NeedRecord& r = record ? *record : local;
    std::array<NeedModel::Unit, 16>& units = r.units;
    int columns = 0;
    for (Bitboard b = pos.pieces(c) & ~settled; b && columns < 16; ++columns) {
        const Square s = pop_lsb(b);
        units[size_t(columns)] = model.unit(s, pos.piece_on(s).walk);
    }
    r.columns = columns;
    std::array<AssignmentRow, 16> cost;
    int rows = 0;
    int target_units = popcount(settled);
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c || (settled & square_bb(Square(t)))) continue;
        if (++target_units > 16) return kFar;  // more target units than a side has
        r.wanted[size_t(rows)] = {want.walk, Square(t)};
        AssignmentRow& row = cost[size_t(rows++)];
        for (int i = 0; i < columns; ++i)
            row[size_t(i)] = units[size_t(i)].square == evicted && t == evicted
                                 ? kFar
                                 : model.unit_cost(units[size_t(i)], want.walk, t);
    }
    r.rows = rows;
    if (record) std::copy(cost.begin(), cost.begin() + rows, record->target_costs.begin());
    // Each capture ~c's pawns must still make takes a distinct unit of c, which ends there
    // (no target square of its own): one row per capture, at the cost of reaching one of its
    // squares. The least over the ways.
    if (model.ways().empty()) return kFar;  // ~c's target pawns are out of reach
    int total = kFar;
    // Each way's rows go below the target squares' rows (written over by the next way).
    for (const PawnCaptureWay& way : model.ways()) {
        if (rows + way.slots > columns) continue;
        for (int k = 0; k < way.slots; ++k)
            for (int i = 0; i < columns; ++i)
                cost[size_t(rows + k)][size_t(i)] = model.slot_cost(units[size_t(i)], way.squares[size_t(k)]);
        AssignmentDuals duals;
        const int value = min_cost_assignment(cost.data(), rows + way.slots, columns, record ? &duals : nullptr);
        total = std::min(total, value);
        if (record && value < kFar) {
            // Each column's price raised as far as the row prices allow (still at most 0):
            // a feasible dual solution whose sum bounds the assignment from below.
            NeedRecord::Way w;
            w.slots = way.slots;
            w.squares = way.squares;
            w.duals = duals;
            w.dual_sum = raise_column_prices(cost.data(), rows + way.slots, columns, w.duals);
            w.target_sum = w.dual_sum;
            for (int k = rows; k < rows + way.slots; ++k) w.target_sum -= duals.row[size_t(k)];
            w.slot_rows = record->slot_costs.size();
            record->slot_costs.insert(record->slot_costs.end(), cost.begin() + rows, cost.begin() + rows + way.slots);
            record->ways.push_back(w);
        }
    }
    if (total >= kFar) return total;
    r.castling = castling_saving(pos, target, c, fixed);
    return std::max(0, total - r.castling);
}

}  // namespace

int proof_moves_needed(const Position& pos, const Board& target, Color c, Bitboard fixed) {
    return moves_needed(pos, target, c, fixed, NeedModel(pos, target, c, fixed), nullptr);
}

namespace {

// settled_walls' units of side c, whose count (proof_moves_needed) is `need` (computed when
// negative).
Bitboard settled_walls_of(const Position& pos, const Board& target, Bitboard fixed, Color c, int moves_left, int need) {
    // Not a king, nor a rook that castling may move.
    Bitboard candidates =
        settled_units(pos, target, c) & ~fixed & ~pos.pieces(c, KING) & ~(pos.pieces(c, ROOK) & pos.castling_rights());
    if (!candidates) return 0;
    if (need < 0) need = proof_moves_needed(pos, target, c, fixed);
    if (need > moves_left) return 0;  // no game at all: nothing to add
    // A piece that leaves and comes back makes two moves more than the least count; a pawn
    // never comes back.
    if (need + 2 <= moves_left) candidates &= pos.pieces(c, PAWN);
    if (!candidates) return 0;
    Bitboard walls = 0;
    const NeedModel model(pos, target, c, fixed);
    for (Bitboard b = candidates; b;) {
        const Square s = pop_lsb(b);
        if (moves_needed(pos, target, c, fixed, model, nullptr, s) > moves_left) walls |= square_bb(s);
    }
    return walls;
}

}  // namespace

Bitboard settled_walls(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> moves_left,
                       const std::array<int, COLOR_NB>* needs) {
    Bitboard walls = 0;
    for (Color c : {WHITE, BLACK})
        walls |= settled_walls_of(pos, target, fixed, c, moves_left[c], needs ? (*needs)[c] : -1);
    return walls;
}

namespace {

// What proof_moves_needed(pos, target, c, fixed) depends on for one target: c's units
// (squares and walks), ~c's pawns and number of units, c's castling sides, and `fixed`.
std::array<Bitboard, 9> needs_key(const Position& pos, Color c, Bitboard fixed) {
    std::array<Bitboard, 9> key;
    for (int w = 0; w < 6; ++w) key[size_t(w)] = pos.pieces(c, Walk(KING + w));
    key[6] = pos.pieces(~c, PAWN);
    key[7] = Bitboard(popcount(pos.pieces(~c))) | Bitboard(pos.castling_sides(c)) << 8 | Bitboard(c) << 16;
    key[8] = fixed;
    return key;
}

}  // namespace

struct MoveProgress::Impl {
    NeedModel model;
    NeedRecord record;
    const Board& target;
    Color side;
    int need = 0;
    // The tables the rows point into (blocked_distances_generation() once built): asking for
    // other walls, as the searches below a node do, may drop them.
    std::uint64_t generation = 0;
    Impl(const Position& p, const Board& t, Color c, Bitboard f) : model(p, t, c, f), target(t), side(c) {
        // The rows come from two obstacle sets (the model's, with its file cuts, and the
        // castling saving's, without): worked out again when asking for the second dropped
        // the first (at most once: both sets are then in the tables).
        for (;;) {
            const std::uint64_t before = blocked_distances_generation();
            record = NeedRecord{};
            need = moves_needed(p, t, c, f, model, &record);
            generation = blocked_distances_generation();
            if (generation == before) break;
        }
    }

    // The column of the unit on s (record.columns when it has none: settled).
    int column_of(Square s) const {
        int j = 0;
        while (j < record.columns && record.units[size_t(j)].square != s) ++j;
        return j;
    }

    // For a unit of walk w that leaves (or is taken on) s, a target square of its walk: each
    // column's cost to fill s.
    std::array<int, 16> costs_to(Walk w, Square s) const {
        std::array<int, 16> costs{};
        for (int i = 0; i < record.columns; ++i) costs[size_t(i)] = model.unit_cost(record.units[size_t(i)], w, s);
        return costs;
    }

    int exact(std::array<AssignmentRow, 16>& cost, int rows, int columns, const std::array<int, 16>& map,
              const NeedModel::Unit* fill, int fill_column, bool captures_stay) const;

    // The highest price, beside way w's column prices, of a new row with those costs.
    int new_row_price(const NeedRecord::Way& w, const std::array<int, 16>& costs) const {
        int price = kFar;
        for (int i = 0; i < record.columns; ++i) price = std::min(price, costs[size_t(i)] - w.duals.column[size_t(i)]);
        return price;
    }
};

MoveProgress::MoveProgress(const Position& pos, const Board& target, Color c, Bitboard fixed)
    : impl_(std::make_shared<Impl>(pos, target, c, fixed)), pos_(&pos) {}

MoveProgress::~MoveProgress() = default;
MoveProgress::MoveProgress(MoveProgress&&) noexcept = default;

const MoveProgress::Impl& MoveProgress::current() const {
    if (impl_->generation != blocked_distances_generation()) {
        const Impl& old = *impl_;
        impl_ = std::make_shared<Impl>(*pos_, old.target, old.side, old.model.fixed());
    }
    return *impl_;
}

struct MoveProgressCache::Entry {
    std::array<Bitboard, 9> key{};
    std::shared_ptr<MoveProgress::Impl> impl;
};

MoveProgressCache::MoveProgressCache(const Board& target) : target_(target) {}
MoveProgressCache::~MoveProgressCache() = default;

MoveProgress MoveProgressCache::get(const Position& pos, Color c, Bitboard fixed) {
    constexpr std::size_t kSize = 1024;
    if (entries_.empty()) entries_.resize(kSize);
    const std::array<Bitboard, 9> key = needs_key(pos, c, fixed);
    Entry& e = entries_[cache_slot(key, kSize)];
    // Worked out again when the distance tables its rows point into were dropped.
    if (!e.impl || e.key != key || e.impl->generation != blocked_distances_generation()) {
        e.key = key;
        e.impl = std::make_shared<MoveProgress::Impl>(pos, target_, c, fixed);
    }
    return MoveProgress(e.impl, pos);
}

int MoveProgress::need() const { return impl_->need; }

int MoveProgress::need_after(Square from, Square to, bool captures_stay) const {
    const Impl& m = current();
    const NeedRecord& r = m.record;
    if (m.need >= kFar) return captures_stay ? int(kFar) : 0;  // no move reaches what no unit reaches
    const int j = m.column_of(from);
    const Walk walk = pos_->piece_on(from).walk;
    // A unit on a target square of its walk (settled: no column, its square no row) that
    // leaves it: one more row (its square) and column (the mover).
    const bool settled = j == r.columns;
    if (!settled && !r.units[size_t(j)].rows[0]) return 0;  // a fixed unit moves: no verdict
    if (settled && (walk < KING || walk > PAWN || r.columns >= 16)) return 0;
    const NeedModel::Unit after = m.model.unit(to, walk);
    // Per way, the parent's dual solution with the mover's column price lowered to what its
    // new costs allow is feasible for the new costs: its sum bounds the new assignment. For
    // a settled mover, the new row's price is the least its other columns allow. When the
    // capture rows change, the target squares' rows alone (a smaller assignment): any way's
    // prices bound it, the best of them counts.
    // The mover's new costs to the target squares (and the other columns' to the square it
    // leaves), the same for every way.
    std::array<int, 16> to_targets{};
    for (int i = 0; i < r.rows; ++i) {
        const auto [want, t] = r.wanted[size_t(i)];
        to_targets[size_t(i)] = m.model.unit_cost(after, want, t);
    }
    const std::array<int, 16> to_left = settled ? m.costs_to(walk, from) : std::array<int, 16>{};
    const int back = settled ? m.model.unit_cost(after, walk, from) : 0;
    int best = captures_stay ? int(kFar) : 0;
    for (const NeedRecord::Way& w : r.ways) {
        int sum = captures_stay ? w.dual_sum : w.target_sum, column = 0;
        if (settled) {
            const int price = m.new_row_price(w, to_left);
            sum += price;
            column = std::min(column, back - price);
        } else {
            sum -= w.duals.column[size_t(j)];
        }
        for (int i = 0; i < r.rows; ++i) column = std::min(column, to_targets[size_t(i)] - w.duals.row[size_t(i)]);
        if (captures_stay)
            for (int k = 0; k < w.slots; ++k)
                column =
                    std::min(column, m.model.slot_cost(after, w.squares[size_t(k)]) - w.duals.row[size_t(r.rows + k)]);
        best = captures_stay ? std::min(best, sum + column) : std::max(best, sum + column);
    }
    return std::clamp(best - r.castling, 0, int(kFar));
}

// The least total over `ways` of the assignments whose first `rows` rows are `cost`'s and
// whose capture rows are each way's stored ones (each column i's cost taken from column
// map[i] of the stored rows, and column `fill_column`'s from `fill` when given: the mover on
// its new square), or of the first `rows` rows alone without `captures_stay`; kFar when none.
int MoveProgress::Impl::exact(std::array<AssignmentRow, 16>& cost, int rows, int columns,
                              const std::array<int, 16>& map, const NeedModel::Unit* fill, int fill_column,
                              bool captures_stay) const {
    if (!captures_stay) return min_cost_assignment(cost.data(), rows, columns);
    int best = kFar;
    for (const NeedRecord::Way& w : record.ways) {
        if (rows + w.slots > columns) continue;
        for (int k = 0; k < w.slots; ++k) {
            const AssignmentRow& stored = record.slot_costs[w.slot_rows + size_t(k)];
            AssignmentRow& row = cost[size_t(rows + k)];
            for (int i = 0; i < columns; ++i)
                if (i != fill_column) row[size_t(i)] = stored[size_t(map[size_t(i)])];
            if (fill) row[size_t(fill_column)] = model.slot_cost(*fill, w.squares[size_t(k)]);
        }
        best = std::min(best, min_cost_assignment(cost.data(), rows + w.slots, columns));
    }
    return best;
}

int MoveProgress::need_after_exact(Square from, Square to, bool captures_stay) const {
    const Impl& m = current();
    const NeedRecord& r = m.record;
    if (m.need >= kFar) return captures_stay ? int(kFar) : 0;
    const int j = m.column_of(from);
    const Walk walk = pos_->piece_on(from).walk;
    const bool settled = j == r.columns;
    if (!settled && !r.units[size_t(j)].rows[0]) return 0;  // a fixed unit moves: no verdict
    if (settled && (walk < KING || walk > PAWN || r.columns >= 16 || r.rows >= 16)) return 0;
    const NeedModel::Unit after = m.model.unit(to, walk);
    // A king's move (castling is not a plain move) ends c's castling: the king then walks a
    // square a move, and no castling saves a move.
    const bool castles = walk != KING && pos_->castling_sides(m.side) != 0;
    // The same assignments with the mover's column costs from its new square; a settled
    // mover adds its column and the square it leaves as a row.
    const int columns = settled ? r.columns + 1 : r.columns;
    const int rows = settled ? r.rows + 1 : r.rows;
    std::array<AssignmentRow, 16> cost;
    std::copy(r.target_costs.begin(), r.target_costs.begin() + r.rows, cost.begin());
    for (int i = 0; i < r.rows; ++i) {
        const auto [want, t] = r.wanted[size_t(i)];
        cost[size_t(i)][size_t(j)] = m.model.unit_cost(after, want, t, castles);
    }
    if (settled) {
        const std::array<int, 16> to_left = m.costs_to(walk, from);
        std::copy(to_left.begin(), to_left.end(), cost[size_t(r.rows)].begin());
        cost[size_t(r.rows)][size_t(j)] = m.model.unit_cost(after, walk, from, castles);
    }
    std::array<int, 16> map;
    for (int i = 0; i < 16; ++i) map[size_t(i)] = i;  // but column j: from `after`
    const int best = m.exact(cost, rows, columns, map, &after, j, captures_stay);
    return std::clamp(best - (walk == KING ? 0 : r.castling), 0, int(kFar));
}

int MoveProgress::need_without_exact(Square taken, bool captures_stay) const {
    const Impl& m = current();
    const NeedRecord& r = m.record;
    if (m.need >= kFar) return captures_stay ? int(kFar) : 0;
    if (m.model.fixed() & square_bb(taken)) return 0;  // a fixed unit taken: no verdict here
    const int j = m.column_of(taken);
    const Walk walk = pos_->piece_on(taken).walk;
    const bool settled = j == r.columns;
    if (settled && (walk < KING || walk > PAWN || r.rows >= 16)) return 0;
    // Without the taken unit's column (the last column moved into its place); a unit taken on
    // a target square of its walk leaves that square as one more row.
    const int columns = settled ? r.columns : r.columns - 1;
    const int rows = settled ? r.rows + 1 : r.rows;
    if (rows > columns) return kFar;  // more target units of c than units
    std::array<int, 16> map;
    for (int i = 0; i < 16; ++i) map[size_t(i)] = i;
    if (!settled) map[size_t(j)] = r.columns - 1;
    std::array<AssignmentRow, 16> cost;
    for (int i = 0; i < r.rows; ++i)
        for (int k = 0; k < columns; ++k)
            cost[size_t(i)][size_t(k)] = r.target_costs[size_t(i)][size_t(map[size_t(k)])];
    if (settled) {
        const std::array<int, 16> to_left = m.costs_to(walk, taken);
        std::copy(to_left.begin(), to_left.end(), cost[size_t(r.rows)].begin());
    }
    const int best = m.exact(cost, rows, columns, map, nullptr, -1, captures_stay);
    return std::clamp(best - r.castling, 0, int(kFar));
}

int MoveProgress::need_without(Square taken, bool captures_stay) const {
    const Impl& m = current();
    const NeedRecord& r = m.record;
    if (m.need >= kFar) return captures_stay ? int(kFar) : 0;
    if (m.model.fixed() & square_bb(taken)) return 0;  // a fixed unit taken: no verdict here
    const int j = m.column_of(taken);
    const Walk walk = pos_->piece_on(taken).walk;
    if (j == r.columns && (walk < KING || walk > PAWN)) return 0;
    const std::array<int, 16> to_left = j == r.columns ? m.costs_to(walk, taken) : std::array<int, 16>{};
    // Per way: without a column its price drops out (it is at most 0); a unit taken on a
    // target square of its walk leaves that square as one more row, priced as the other
    // columns allow. When the capture rows change, the target squares' rows alone, as above.
    int best = captures_stay ? int(kFar) : 0;
    for (const NeedRecord::Way& w : r.ways) {
        int sum = captures_stay ? w.dual_sum : w.target_sum;
        if (j < r.columns)
            sum -= w.duals.column[size_t(j)];
        else
            sum += m.new_row_price(w, to_left);
        best = captures_stay ? std::min(best, sum) : std::max(best, sum);
    }
    return std::clamp(best - r.castling, 0, int(kFar));
}

int MovesNeededCache::moves_needed(const Position& pos, Color c, Bitboard fixed) {
    constexpr std::size_t kSize = std::size_t(1) << 16;
    const std::array<Bitboard, 9> key = needs_key(pos, c, fixed);
    if (!entries_) entries_ = zeroed_table<Entry>(kSize);
    Entry& e = entries_.get()[cache_slot(key, kSize)];
    if (e.stored > 0 && e.key == key) return e.stored - 1;
    const int value = proof_moves_needed(pos, target_, c, fixed);
    e.key = key;
    e.stored = value + 1;
    return value;
}

Bitboard SettledWallsCache::walls(const Position& pos, Bitboard fixed, std::array<int, COLOR_NB> moves_left,
                                  const std::array<int, COLOR_NB>& needs) {
    constexpr std::size_t kSize = std::size_t(1) << 14;
    if (!entries_) entries_ = zeroed_table<Entry>(kSize);
    Bitboard walls = 0;
    for (Color c : {WHITE, BLACK}) {
        const std::array<Bitboard, 9> units = needs_key(pos, c, fixed);
        std::array<Bitboard, 10> key;
        std::copy(units.begin(), units.end(), key.begin());
        // The moves left, and a bit that makes the word nonzero (an empty entry is all zero).
        key[9] = Bitboard(std::uint32_t(moves_left[c])) | Bitboard(1) << 32;
        Entry& e = entries_.get()[cache_slot(key, kSize)];
        if (e.key != key) {
            e.walls = settled_walls_of(pos, target_, fixed, c, moves_left[c], needs[c]);
            e.key = key;
        }
        walls |= e.walls;
    }
    return walls;
}

int pawn_capture_slots(const Position& pos, const Board& target, Color k, Bitboard fixed,
                       std::array<Bitboard, 8>& slots) {
    // A pawn's cone: the squares it can stand on later as a pawn (forward, as many files as
    // ranks), and the squares from which a pawn reaches a square.
    struct Cones {
        std::array<std::array<Bitboard, 64>, 2> ahead{}, behind{};
        Cones() {
            for (Color c : {WHITE, BLACK})
                for (int a = 0; a < 64; ++a)
                    for (int b = 0; b < 64; ++b) {
                        const int dr = c == WHITE ? rank_of(Square(b)) - rank_of(Square(a))
                                                  : rank_of(Square(a)) - rank_of(Square(b));
                        if (dr > 0 && std::abs(file_of(Square(b)) - file_of(Square(a))) <= dr) {
                            ahead[c][a] |= square_bb(Square(b));
                            behind[c][b] |= square_bb(Square(a));
                        }
                    }
        }
    };
    static const Cones cones;
    const Bitboard pawns = pos.pieces(k, PAWN) & ~fixed;
    int n = 0;
    for (int t = 0; t < SQUARE_NB && n < 8; ++t) {
        if (target[t].walk != PAWN || target[t].color != k) continue;
        if (pos.pieces(k, PAWN) & square_bb(Square(t))) continue;  // may stay there
        const Bitboard candidates = pawns & cones.behind[k][t];
        if (!candidates || (candidates & file_bb(file_of(Square(t))))) continue;
        Bitboard squares = 0;
        for (Bitboard b = candidates; b;) {
            const Square p = pop_lsb(b);
            squares |= cones.ahead[k][p] & (cones.behind[k][t] | square_bb(Square(t)));
        }
        slots[n++] = squares;
    }
    return n;
}

bool pawn_capture_ways(const Position& pos, const Board& target, Color k, Bitboard fixed,
                       std::vector<PawnCaptureWay>& ways, int max_ways) {
    ways.clear();
    const int takes = takes_left(pos, target, k);
    std::array<Square, 16> pawns{}, squares{};
    int n_pawns = 0, n_squares = 0;
    for (Bitboard b = pos.pieces(k, PAWN) & ~fixed; b && n_pawns < 16;) pawns[n_pawns++] = pop_lsb(b);
    for (int t = 0; t < SQUARE_NB; ++t)
        if (target[t].walk == PAWN && target[t].color == k && !(fixed & square_bb(Square(t)))) {
            if (n_squares == 16) return false;
            squares[n_squares++] = Square(t);
        }
    // Whether pawn p can fill square t, and with how many captures (file changes).
    auto changes = [&](Square p, Square t) {
        const int dr = k == WHITE ? rank_of(t) - rank_of(p) : rank_of(p) - rank_of(t);
        const int df = std::abs(file_of(t) - file_of(p));
        return (dr > 0 && df <= dr) || p == t ? df : -1;
    };
    std::array<int, 16> chosen{};
    unsigned used = 0;
    bool complete = true;
    auto walk = [&](auto& self, int j, int spent) -> void {
        if (!complete) return;
        if (j == n_squares) {
            if (static_cast<int>(ways.size()) == max_ways) {
                complete = false;
                return;
            }
            PawnCaptureWay way;
            for (int q = 0; q < n_squares; ++q) {
                const Square p = pawns[chosen[q]], t = squares[q];
                const int df = file_of(t) - file_of(p), step = df > 0 ? 1 : -1;
                for (int m = 1; m <= std::abs(df); ++m) {
                    // The m-th capture lands on file f + m * step, at least m ranks ahead of the
                    // pawn and at least |df| - m ranks behind the target square.
                    const int file = file_of(p) + m * step;
                    Bitboard slot = 0;
                    for (int r = 0; r < 8; ++r) {
                        const int ahead = k == WHITE ? r - rank_of(p) : rank_of(p) - r;
                        const int behind = k == WHITE ? rank_of(t) - r : r - rank_of(t);
                        if (ahead >= m && behind >= std::abs(df) - m) slot |= square_bb(make_square(file, r));
                    }
                    way.squares[size_t(way.slots++)] = slot;
                }
            }
            ways.push_back(way);
            return;
        }
        for (int i = 0; i < n_pawns; ++i) {
            if (used & (1u << i)) continue;
            const int df = changes(pawns[i], squares[j]);
            if (df < 0 || spent + df > takes) continue;
            used |= 1u << i;
            chosen[j] = i;
            self(self, j + 1, spent + df);
            used &= ~(1u << i);
        }
    };
    walk(walk, 0, 0);
    if (!complete) ways.clear();
    return complete;
}

int castling_saving(const Position& pos, const Board& target, Color c, Bitboard fixed) {
    const unsigned sides = pos.castling_sides(c);
    const int rank = c == WHITE ? 0 : 7;
    if (!sides || (target[make_square(4, rank)].walk == KING && target[make_square(4, rank)].color == c)) return 0;
    // A castling is also the king's move, and after it the king stands on c1 or g1: it spares
    // nothing where the king is no nearer its target square from there than from where it is
    // (its distances count castling as one king move).
    auto king_way = [&](int saving) {
        const Bitboard kings = pos.pieces(c, KING);
        int to = -1;
        for (int t = 0; t < SQUARE_NB; ++t)
            if (target[t].walk == KING && target[t].color == c) to = t;
        if (popcount(kings) != 1 || to < 0) return saving;
        const std::uint8_t* now = blocked_distances_as(fixed, KING, c, lsb(kings), KING);
        const std::uint8_t* queen_side = blocked_distances_as(fixed, KING, c, make_square(2, rank), KING);
        const std::uint8_t* king_side = blocked_distances_as(fixed, KING, c, make_square(6, rank), KING);
        if (!now || !queen_side || !king_side) return saving;
        return now[to] > std::min(queen_side[to], king_side[to]) ? saving : 0;
    };
    for (int side = 0; side < 2; ++side) {
        if (!(sides & (1u << side))) continue;
        const Square corner = make_square(side ? 7 : 0, rank), castled = make_square(side ? 5 : 3, rank);
        if (fixed & between_bb(make_square(4, rank), corner)) continue;  // never castles on that side
        const std::uint8_t* from_corner = blocked_distances_as(fixed, ROOK, c, corner, ROOK);
        const std::uint8_t* from_castled = blocked_distances_as(fixed, ROOK, c, castled, ROOK);
        if (!from_corner || !from_castled) continue;
        for (int t = 0; t < SQUARE_NB; ++t)
            if (target[t].walk == ROOK && target[t].color == c && from_castled[t] < from_corner[t]) return king_way(1);
    }
    return 0;
}

bool proof_captures_possible(const Position& pos, const Board& target, Color c) {
    const int captures = takes_left(pos, target, c);
    // Rows: c's target pawns; columns: c's pawns on the board; cost: the file changes, each
    // one capture (kFar when the pawn cannot get there as a pawn).
    std::array<Square, 16> pawns{};
    int columns = 0;
    for (Bitboard b = pos.pieces(c, PAWN); b && columns < 16;) pawns[columns++] = pop_lsb(b);
    std::array<AssignmentRow, 16> cost;
    int rows = 0;
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.walk != PAWN || want.color != c) continue;
        if (rows == 16) return false;
        AssignmentRow& row = cost[rows++];
        for (int i = 0; i < columns; ++i) {
            const std::uint8_t* d = empty_distances_as(PAWN, c, pawns[i], PAWN);
            row[i] = d[t] >= kFar ? kFar : std::abs(file_of(pawns[i]) - file_of(Square(t)));
        }
    }
    return min_cost_assignment(cost.data(), rows, columns) <= captures;
}

}  // namespace rebirth
