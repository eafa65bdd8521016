#include "rebirth/proof_captures.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "proofgame/cache_slot.h"
#include "rebirth/assignment.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

namespace {

// One unit that is not fixed: where it stands, its walk, and its distance rows (its own
// walk; a pawn also as a queen and as a knight after promotion).
struct Unit {
    Square square = SQ_NONE;
    Walk walk = NO_WALK;
    UnitRows rows{};
};

// One side's assignment problem without its fixed units (which keep their own target
// squares: no other unit enters them): columns its other units, rows its other target
// squares, base[r][i] the fewest moves of unit i to target square r.
struct SideMatrix {
    bool valid = false;  // false: no verdict (a walk without distance tables, too many units)
    std::array<Unit, 16> units{};
    int columns = 0;
    std::array<Square, 16> squares{};
    std::array<Walk, 16> wants{};
    int rows = 0;
    std::array<AssignmentRow, 16> base{};
    int saving = 0;         // castling_saving
    int least = kFar;       // the least assignment of base
    AssignmentDuals duals;  // of the least assignment (duals.used: the columns it uses)
    // Per row its cheapest column, that cost, and the cheapest cost of the other columns.
    std::array<int, 16> cheapest_column{}, cheapest{}, second{};
};

SideMatrix side_matrix(const Position& pos, const Board& target, Color c, Bitboard fixed) {
    SideMatrix m;
    for (Bitboard b = pos.pieces(c) & ~fixed; b; ++m.columns) {
        if (m.columns == 16) return m;
        Unit& u = m.units[m.columns];
        u.square = pop_lsb(b);
        u.walk = pos.piece_on(u.square).walk;
        u.rows = unit_rows(fixed, u.walk, c, u.square);
        if (!u.rows[0]) return m;
    }
    for (int t = 0; t < SQUARE_NB; ++t) {
        const Piece want = target[t];
        if (want.empty() || want.color != c || (fixed & square_bb(Square(t)))) continue;
        if (m.rows == 16) return m;
        m.squares[m.rows] = Square(t);
        m.wants[m.rows++] = want.walk;
    }
    for (int r = 0; r < m.rows; ++r)
        for (int i = 0; i < m.columns; ++i) {
            const std::uint8_t* d = row_for(m.units[i].rows, m.units[i].walk, m.wants[r]);
            m.base[r][i] = d ? d[m.squares[r]] : kFar;
        }
    m.saving = castling_saving(pos, target, c, fixed);
    m.least = min_cost_assignment(m.base.data(), m.rows, m.columns, &m.duals);
    for (int r = 0; r < m.rows; ++r) {
        int best = kFar, next = kFar, at = -1;
        for (int i = 0; i < m.columns; ++i) {
            if (m.base[r][i] < best) {
                next = best;
                best = m.base[r][i];
                at = i;
            } else {
                next = std::min(next, m.base[r][i]);
            }
        }
        m.cheapest_column[r] = at;
        m.cheapest[r] = best;
        m.second[r] = next;
    }
    m.valid = true;
    return m;
}

// The least assignment of m with column i left out (kFar when none).
int assignment_without(const SideMatrix& m, int i) {
    if (m.rows > m.columns - 1) return kFar;
    if (!(m.duals.used & (1u << i))) return m.least;
    std::array<AssignmentRow, 16> cost = m.base;
    for (int r = 0; r < m.rows; ++r) cost[r][i] = kFar;
    return min_cost_assignment(cost.data(), m.rows, m.columns);
}

// A lower bound of assignment_without(m, i) without a new assignment: each row at least at
// its cheapest other column, and the dual bound (assignment.h); kFar when a row has no other.
int others_at_least(const SideMatrix& m, int i) {
    if (m.rows > m.columns - 1) return kFar;
    int sum = 0;
    for (int r = 0; r < m.rows; ++r) {
        const int best = m.cheapest_column[r] == i ? m.second[r] : m.cheapest[r];
        if (best >= kFar) return kFar;
        sum += best;
    }
    return std::max(sum, m.least - m.duals.column[i]);
}

// proof_capture_squares with owner's matrix given.
Bitboard capture_squares(const SideMatrix& m, const Position& pos, int moves_left, Bitboard fixed) {
    if (!m.valid || m.least >= kFar) return ~fixed;  // no verdict: anywhere
    const Bitboard rights = pos.castling_rights();
    Bitboard squares = 0;
    for (int i = 0; i < m.columns; ++i) {
        const Unit& u = m.units[i];
        if (u.walk == KING) continue;
        const int others = others_at_least(m, i);
        if (others >= kFar) continue;  // the target needs this unit: never taken
        const bool castles = u.walk == ROOK && (rights & square_bb(u.square));
        const int reach = moves_left - others + (castles ? 1 : m.saving);
        if (reach < 0) continue;
        for (const std::uint8_t* d : u.rows)
            if (d) squares |= squares_within(d, reach);
    }
    // An en passant capture open now lands behind the pawn that has made its double step.
    if (pos.ep_square() != SQ_NONE) squares |= square_bb(pos.ep_square());
    return squares & ~fixed;
}

// proof_capture_possible with c's matrix given.
bool capture_possible(const SideMatrix& m, const Position& pos, Color c, Bitboard fixed, Bitboard capture_squares,
                      int moves_left) {
    if (!m.valid) return m.rows < 16 || m.columns == 16;  // too many target units: never
    if (m.least >= kFar) return false;                    // the target is out of reach anyway
    const Bitboard rights = pos.castling_rights();
    std::array<AssignmentRow, 16> cost;
    for (int i = 0; i < m.columns; ++i) {
        const Unit& u = m.units[i];
        // A rook that may castle gets to its castled square with the king's move: when it is
        // the capturer, one move of its way may be free even if the target gives no saving.
        const bool castles = u.walk == ROOK && (rights & square_bb(u.square)) &&
                             (pos.castling_sides(c) & (file_of(u.square) == 0 ? 1u : 2u));
        const int limit = moves_left + (castles ? 1 : m.saving);
        // taken: the fewest moves to a capture square (u then taken itself).
        int taken = kFar;
        for (Bitboard b = capture_squares; b;) {
            const Square q = pop_lsb(b);
            for (const std::uint8_t* d : u.rows)
                if (d) taken = std::min<int>(taken, d[q]);
        }
        if (taken >= kFar) continue;
        // The dual bound (assignment.h) with u's costs raised to at least max(base, taken):
        // when it exceeds the limit both ways, u is not the capturer.
        const int dropped = m.least - m.duals.column[i];
        int floor = kFar;
        for (int r = 0; r < m.rows; ++r) floor = std::min(floor, std::max(m.base[r][i], taken) - m.duals.row[r]);
        const bool may_take_on_way = dropped + floor <= limit;
        const bool may_be_taken = m.columns > m.rows && dropped + taken <= limit;
        if (!may_take_on_way && !may_be_taken) continue;
        // via[r]: the fewest moves from u's square through a capture square to square r.
        std::array<int, 16> via;
        via.fill(kFar);
        for (Bitboard b = may_take_on_way ? capture_squares : 0; b;) {
            const Square q = pop_lsb(b);
            const int as_self = u.rows[0][q];
            const int as_queen = u.walk == PAWN ? u.rows[1][q] : kFar;
            const int as_knight = u.walk == PAWN ? u.rows[2][q] : kFar;
            if (std::min({as_self, as_queen, as_knight}) >= kFar) continue;
            if (u.walk != PAWN) {
                const std::uint8_t* on = blocked_distances_as(fixed, u.walk, c, q, u.walk);
                for (int r = 0; r < m.rows; ++r)
                    if (m.wants[r] == u.walk) via[r] = std::min(via[r], as_self + on[m.squares[r]]);
                continue;
            }
            // A pawn takes as a pawn (then goes on as a pawn, or promotes on the way), or
            // after promoting (then goes on as a queen or a knight).
            if (as_self < kFar) {
                const std::uint8_t* pawn = blocked_distances_as(fixed, PAWN, c, q, PAWN);
                const std::uint8_t* queen = blocked_distances_as(fixed, PAWN, c, q, QUEEN);
                const std::uint8_t* knight = blocked_distances_as(fixed, PAWN, c, q, KNIGHT);
                for (int r = 0; r < m.rows; ++r) {
                    const Walk want = m.wants[r];
                    const std::uint8_t* on = want == PAWN     ? pawn
                                             : want == KNIGHT ? knight
                                             : want == KING   ? nullptr
                                                              : queen;
                    if (on) via[r] = std::min(via[r], as_self + on[m.squares[r]]);
                }
            }
            if (as_queen < kFar) {
                const std::uint8_t* on = blocked_distances_as(fixed, QUEEN, c, q, QUEEN);
                for (int r = 0; r < m.rows; ++r)
                    if (m.wants[r] != PAWN && m.wants[r] != KING && m.wants[r] != KNIGHT)
                        via[r] = std::min(via[r], as_queen + on[m.squares[r]]);
            }
            if (as_knight < kFar) {
                const std::uint8_t* on = blocked_distances_as(fixed, KNIGHT, c, q, KNIGHT);
                for (int r = 0; r < m.rows; ++r)
                    if (m.wants[r] == KNIGHT) via[r] = std::min(via[r], as_knight + on[m.squares[r]]);
            }
        }
        // u takes on its way to its target square; first the dual bound, then, where that
        // does not exclude it, the assignment itself.
        if (may_take_on_way) {
            int raised = kFar;
            for (int r = 0; r < m.rows; ++r) raised = std::min(raised, std::min(via[r], kFar) - m.duals.row[r]);
            if (dropped + raised <= limit) {
                cost = m.base;
                for (int r = 0; r < m.rows; ++r) cost[r][i] = std::min(via[r], kFar);
                if (min_cost_assignment(cost.data(), m.rows, m.columns) <= limit) return true;
            }
        }
        // u takes and is taken later: the others fill the target squares.
        if (may_be_taken) {
            const int others = assignment_without(m, i);
            if (others < kFar && others + taken <= limit) return true;
        }
    }
    return false;
}

}  // namespace

Bitboard proof_capture_squares(const Position& pos, const Board& target, Color owner, int moves_left, Bitboard fixed) {
    return capture_squares(side_matrix(pos, target, owner, fixed), pos, moves_left, fixed);
}

bool proof_capture_possible(const Position& pos, const Board& target, Color c, Bitboard fixed, Bitboard capture_squares,
                            int moves_left) {
    return capture_possible(side_matrix(pos, target, c, fixed), pos, c, fixed, capture_squares, moves_left);
}

namespace {

// The number of units of each side in the target.
std::array<int, COLOR_NB> kept_units(const Board& target) {
    std::array<int, COLOR_NB> kept{0, 0};
    for (const Piece& p : target)
        if (!p.empty()) ++kept[p.color];
    return kept;
}

}  // namespace

struct CaptureBoundCache::Impl {
    struct Entry {
        std::array<Bitboard, 8> key{};
        std::uint64_t generation = 0;
        bool used = false;
        SideMatrix matrix;
    };
    static constexpr std::size_t kSize = 1024;
    const Board& target;
    std::vector<Entry> entries;
    const std::array<int, COLOR_NB> kept;

    explicit Impl(const Board& t) : target(t), kept(kept_units(t)) {}

    // side_matrix(pos, target, c, fixed), from the table when it holds it.
    const SideMatrix& matrix(const Position& pos, Color c, Bitboard fixed) {
        std::array<Bitboard, 8> key;
        for (int w = 0; w < 6; ++w) key[size_t(w)] = pos.pieces(c, Walk(KING + w));
        key[6] = fixed;
        key[7] = Bitboard(pos.castling_sides(c)) | Bitboard(c) << 8;
        if (entries.empty()) entries.resize(kSize);
        Entry& e = entries[cache_slot(key, kSize)];
        const std::uint64_t generation = blocked_distances_generation();
        if (e.used && e.key == key && e.generation == generation) return e.matrix;
        e.matrix = side_matrix(pos, target, c, fixed);
        // Rows asked for while building it may have dropped the tables: it then points into
        // the new ones.
        e.generation = blocked_distances_generation();
        e.key = key;
        e.used = true;
        return e.matrix;
    }
};

CaptureBoundCache::CaptureBoundCache(const Board& target) : impl_(std::make_unique<Impl>(target)) {}
CaptureBoundCache::~CaptureBoundCache() = default;

bool proof_captures_feasible(const Position& pos, const Board& target, Bitboard fixed,
                             std::array<int, COLOR_NB> moves_left, CaptureBoundCache* cache) {
    const std::array<int, COLOR_NB> kept = cache ? cache->impl_->kept : kept_units(target);
    std::array<SideMatrix, COLOR_NB> m;
    std::array<bool, COLOR_NB> built{false, false};
    auto matrix = [&](Color c) -> const SideMatrix& {
        if (!built[c]) m[c] = cache ? cache->impl_->matrix(pos, c, fixed) : side_matrix(pos, target, c, fixed);
        built[c] = true;
        return m[c];
    };
    for (Color c : {WHITE, BLACK}) {
        if (popcount(pos.pieces(~c)) <= kept[~c]) continue;  // c takes nothing
        const Bitboard squares = capture_squares(matrix(~c), pos, moves_left[~c], fixed);
        if (!capture_possible(matrix(c), pos, c, fixed, squares, moves_left[c])) return false;
    }
    return true;
}

}  // namespace rebirth
