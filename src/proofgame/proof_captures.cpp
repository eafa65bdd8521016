#include "rebirth/proof_captures.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
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
    std::array<AssignmentRow, 16> at_least{};  // the UnitCostFloor of a unit and row (0: none), in base too
    int saving = 0;                            // castling_saving
    int least = kFar;                          // the least assignment of base
    AssignmentDuals duals;                     // of the least assignment (duals.used: the columns it uses)
    // Per row its cheapest column, that cost, and the cheapest cost of the other columns.
    std::array<int, 16> cheapest_column{}, cheapest{}, second{};
};

SideMatrix side_matrix(const Position& pos, const Board& target, Color c, Bitboard fixed,
                       const std::vector<UnitCostFloor>* floors = nullptr) {
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
    for (size_t k = 0; floors && k < floors->size(); ++k)
        for (int r = 0; r < m.rows; ++r)
            for (int i = 0; i < m.columns; ++i)
                if (const UnitCostFloor& f = (*floors)[k];
                    m.units[i].square == f.unit && m.squares[r] == f.to && pos.piece_on(f.unit).color == c) {
                    m.at_least[r][i] = std::min(f.moves, int(kFar));
                    m.base[r][i] = std::max(m.base[r][i], m.at_least[r][i]);
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

// The fewest moves with which pawn unit u of colour c takes on q as a pawn: its way to a
// square diagonally behind q, then the capture (kFar where none; never on its own square).
int pawn_takes_at(const Unit& u, Color c, Square q) {
    const int back = rank_of(q) + (c == WHITE ? -1 : 1);
    if (back < 0 || back > 7) return kFar;
    int best = kFar;
    for (int g : {file_of(q) - 1, file_of(q) + 1})
        if (g >= 0 && g <= 7) best = std::min(best, u.rows[0][make_square(g, back)] + 1);
    return std::min(best, kFar);
}

// The fewest moves with which unit u of colour c takes on q: its capture is a move onto q,
// so from q itself it first leaves and comes back (two moves; a pawn never comes back), and a
// pawn takes as a pawn only diagonally (or after promoting, as a queen or knight).
int takes_at(const Unit& u, Color c, Square q) {
    if (u.walk == PAWN) return std::min({pawn_takes_at(u, c, q), int(u.rows[1][q]), int(u.rows[2][q])});
    return q == u.square ? 2 : u.rows[0][q];
}

// The distances, with the fixed units as walls, from the castled square (d1 or f1, d8 or f8)
// of the rook of side c on `rook` when it may still castle: a right on that side and no fixed
// unit between king and rook. Its way may start there: the castling is the king's move.
// Null (and `castled` SQ_NONE) when it may not.
const std::uint8_t* castling_rook_row(const Position& pos, Color c, Bitboard fixed, Square rook, Square& castled) {
    castled = SQ_NONE;
    const int home = c == WHITE ? 0 : 7, file = file_of(rook);
    if (pos.piece_on(rook).walk != ROOK || !(pos.castling_rights() & square_bb(rook)) || rank_of(rook) != home ||
        (file != 0 && file != 7) || !(pos.castling_sides(c) & (file == 0 ? 1u : 2u)) ||
        (fixed & between_bb(make_square(4, home), rook)))
        return nullptr;
    const Square to = make_square(file == 0 ? 3 : 5, home);
    const std::uint8_t* row = blocked_distances_as(fixed, ROOK, c, to, ROOK);
    if (row) castled = to;
    return row;
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
    Bitboard squares = 0;
    for (int i = 0; i < m.columns; ++i) {
        const Unit& u = m.units[i];
        if (u.walk == KING) continue;
        const int others = others_at_least(m, i);
        if (others >= kFar) continue;  // the target needs this unit: never taken
        const int reach = moves_left - others + m.saving;
        if (reach < 0) continue;
        for (const std::uint8_t* d : u.rows)
            if (d) squares |= squares_within(d, reach);
        // A rook that may castle may also go on from its castled square.
        Square castled;
        if (const std::uint8_t* d = castling_rook_row(pos, pos.piece_on(u.square).color, fixed, u.square, castled))
            squares |= squares_within(d, reach);
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
    std::array<AssignmentRow, 16> cost;
    for (int i = 0; i < m.columns; ++i) {
        const Unit& u = m.units[i];
        // A rook that may castle gets to its castled square with the king's move: its way may
        // start there (castling itself takes nothing). One side castles once, so another
        // rook's saving (castling_saving) still counts.
        Square castled;
        const std::uint8_t* from_castled = castling_rook_row(pos, c, fixed, u.square, castled);
        auto takes = [&](Square q) {
            const int t = takes_at(u, c, q);
            return from_castled ? std::min<int>(t, q == castled ? 2 : from_castled[q]) : t;
        };
        const int limit = moves_left + m.saving;
        // taken: the fewest moves to take on a capture square (u then taken itself).
        int taken = kFar;
        for (Bitboard b = capture_squares; b;) taken = std::min(taken, takes(pop_lsb(b)));
        if (taken >= kFar) continue;
        // The dual bound (assignment.h) with u's costs raised to at least max(base, taken):
        // when it exceeds the limit both ways, u is not the capturer.
        const int dropped = m.least - m.duals.column[i];
        int floor = kFar;
        for (int r = 0; r < m.rows; ++r) {
            const int base = from_castled ? std::min<int>(m.base[r][i], from_castled[m.squares[r]]) : m.base[r][i];
            floor = std::min(floor, std::max(base, taken) - m.duals.row[r]);
        }
        const bool may_take_on_way = dropped + floor <= limit;
        const bool may_be_taken = m.columns > m.rows && dropped + taken <= limit;
        if (!may_take_on_way && !may_be_taken) continue;
        // via[r]: the fewest moves from u's square through a capture square to square r.
        std::array<int, 16> via;
        via.fill(kFar);
        for (Bitboard b = may_take_on_way ? capture_squares : 0; b;) {
            const Square q = pop_lsb(b);
            const int as_self = u.walk == PAWN ? pawn_takes_at(u, c, q) : takes(q);
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
                for (int r = 0; r < m.rows; ++r) cost[r][i] = std::max(std::min(via[r], kFar), m.at_least[r][i]);
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

// Where side c's units can take: per square q (not fixed), the fewest moves left to c with
// which one of its units can stand on q to take there, worked out square by square when
// asked. A unit takes on its way to a target square (the dual bound of the assignment with
// the unit's costs raised to its way through q, as capture_possible), or before it is taken
// itself (the others fill the target squares). A rook that may castle may start its way from
// its castled square (the castling is the king's move; one side castles once, so another
// rook's saving, castling_saving, still lowers the moves left). With no verdict from the
// matrix every square not fixed is in reach with no moves.
struct CaptureReach {
    bool ready = false;
    bool anywhere = false;
    // The rows' distances from every square, by the symmetry of the queen's, rook's, bishop's
    // and knight's distances on a board of walls (not the king's: castling is one way); a
    // queen's way back serves a pawn promoted before q to a queen, rook or bishop square.
    std::array<const std::uint8_t*, 16> back{}, queen_back{};
    std::array<int, 16> dropped{}, others{};
    int saving = 0;  // castling_saving: what another rook's castling may spare
    // A rook that may castle: its castled square and its distances from there (the castling
    // is the king's move, so its way may start there; castling itself takes nothing).
    std::array<Square, 16> castled{};
    std::array<const std::uint8_t*, 16> from_castled{};
    int takes = 0;  // the captures c can still make: the units of ~c the target lacks
    Bitboard known = 0;
    std::array<std::uint8_t, SQUARE_NB> need{};

    void prepare(const SideMatrix& m, const Position& pos, Color c, Bitboard fixed, int captures) {
        ready = true;
        known = 0;
        takes = captures;
        saving = m.saving;
        anywhere = !m.valid || m.least >= kFar;
        if (anywhere) return;
        for (int r = 0; r < m.rows; ++r) {
            const Walk w = m.wants[r];
            back[size_t(r)] = w != KING && w != PAWN ? blocked_distances_as(fixed, w, c, m.squares[r], w) : nullptr;
            queen_back[size_t(r)] = w == QUEEN || w == ROOK || w == BISHOP
                                        ? blocked_distances_as(fixed, QUEEN, c, m.squares[r], QUEEN)
                                        : nullptr;
        }
        for (int i = 0; i < m.columns; ++i) {
            from_castled[size_t(i)] = castling_rook_row(pos, c, fixed, m.units[i].square, castled[size_t(i)]);
            dropped[size_t(i)] = m.least - m.duals.column[i];
            others[size_t(i)] = m.columns > m.rows ? others_at_least(m, i) : kFar;
        }
    }

    // The fewest moves left to c with which a unit of c can take on q (kFar: none).
    int at(const SideMatrix& m, Color c, Bitboard fixed, Square q) {
        if (fixed & square_bb(q)) return kFar;
        if (anywhere) return 0;
        if (known & square_bb(q)) return need[q];
        int best = kFar;
        for (int i = 0; i < m.columns; ++i) {
            const Unit& u = m.units[i];
            int taken = takes_at(u, c, q);
            if (from_castled[size_t(i)])
                taken = std::min<int>(taken, q == castled[size_t(i)] ? 2 : from_castled[size_t(i)][q]);
            // A pawn changes file only by taking, at least once more to take on its own file: too
            // far a file, it takes on q only after promoting (as a queen or a knight).
            bool as_pawn = u.walk == PAWN;
            if (as_pawn) {
                const int files = std::abs(file_of(q) - file_of(u.square));
                if ((files == 0 ? 2 : files) > takes) {
                    as_pawn = false;
                    taken = std::min<int>(u.rows[1][q], u.rows[2][q]);
                }
            }
            if (taken >= kFar) continue;
            int cost = others[size_t(i)] < kFar ? others[size_t(i)] + taken : kFar;
            // On its way: the least over the rows of (way through q) - row price.
            int raised = kFar;
            if (u.walk == KING) {
                // From q on: the empty board's distances (no higher than with walls).
                const std::uint8_t* on = empty_distances_as(KING, c, q, KING);
                for (int r = 0; r < m.rows; ++r)
                    if (m.wants[r] == KING) raised = std::min(raised, taken + on[m.squares[r]] - m.duals.row[r]);
            } else if (u.walk != PAWN) {
                for (int r = 0; r < m.rows; ++r)
                    if (m.wants[r] == u.walk) raised = std::min(raised, taken + back[size_t(r)][q] - m.duals.row[r]);
            } else {
                const int as_self = as_pawn ? pawn_takes_at(u, c, q) : int(kFar);
                const int as_queen = u.rows[1][q], as_knight = u.rows[2][q];
                // From q on as a pawn: the empty board's distances (no higher than with walls).
                const std::uint8_t* pawn = as_self < kFar ? empty_distances_as(PAWN, c, q, PAWN) : nullptr;
                const std::uint8_t* queen = as_self < kFar ? empty_distances_as(PAWN, c, q, QUEEN) : nullptr;
                const std::uint8_t* knight = as_self < kFar ? empty_distances_as(PAWN, c, q, KNIGHT) : nullptr;
                for (int r = 0; r < m.rows; ++r) {
                    const Walk want = m.wants[r];
                    const Square t = m.squares[r];
                    int via = kFar;
                    if (want == PAWN) {
                        if (pawn) via = as_self + pawn[t];
                    } else if (want == KNIGHT) {
                        if (knight) via = as_self + knight[t];
                        if (as_knight < kFar) via = std::min(via, as_knight + back[size_t(r)][q]);
                    } else if (want != KING) {
                        if (queen) via = as_self + queen[t];
                        if (as_queen < kFar) via = std::min(via, as_queen + queen_back[size_t(r)][q]);
                    }
                    if (via < kFar) raised = std::min(raised, via - m.duals.row[r]);
                }
            }
            if (raised < kFar) cost = std::min(cost, dropped[size_t(i)] + raised);
            best = std::min(best, cost - saving);
        }
        need[q] = std::uint8_t(std::clamp(best, 0, kFar));
        known |= square_bb(q);
        return need[q];
    }
};

// The fewest moves of a pawn of colour c on `from` to stand on each square as a pawn when each
// of its captures lands on a square of `lands` (kFar where never): forward steps onto squares
// that are not fixed, the double step from its second rank over a square that is not fixed,
// captures onto squares of `lands` (which holds no fixed square); never on its last rank.
std::array<std::uint8_t, SQUARE_NB> pawn_distances_landing(Color c, Square from, Bitboard fixed, Bitboard lands) {
    std::array<std::uint8_t, SQUARE_NB> d;
    d.fill(std::uint8_t(kFar));
    d[from] = 0;
    const int dir = c == WHITE ? 1 : -1, last = c == WHITE ? 7 : 0, second = c == WHITE ? 1 : 6;
    // Ranks in the pawn's direction: every move goes one rank on (two for the double step).
    for (int r = rank_of(from); r != last; r += dir)
        for (int f = 0; f < 8; ++f) {
            const Square s = make_square(f, r);
            if (d[s] >= kFar) continue;
            const int next = d[s] + 1;
            if (r + dir == last) continue;  // a pawn never stands on its last rank
            const Square ahead = make_square(f, r + dir);
            if (!(fixed & square_bb(ahead))) {
                d[ahead] = std::uint8_t(std::min<int>(d[ahead], next));
                if (r == second && r + 2 * dir != last) {
                    const Square two = make_square(f, r + 2 * dir);
                    if (!(fixed & square_bb(two))) d[two] = std::uint8_t(std::min<int>(d[two], next));
                }
            }
            for (int g : {f - 1, f + 1}) {
                if (g < 0 || g > 7) continue;
                const Square q = make_square(g, r + dir);
                if (lands & square_bb(q)) d[q] = std::uint8_t(std::min<int>(d[q], next));
            }
        }
    return d;
}

// The most moves to spare with which victims_possible gives a verdict (see there).
constexpr int kVictimsSpare = 4;

// Whether side o can bring its units onto their target squares with at most `moves_left`
// moves while `victims` of its units (those the target does not keep) each go to a square
// where the other side c can take them with its `taker_moves` moves left (`reach`), a pawn
// on its first square also by its double step over one (taken en passant, or at once when it
// has just made it): the assignment of o's matrix with one more row per victim, each unit's
// cost there its fewest moves into reach (a rook that may castle also from its castled
// square: the castling is the king's move).
// Squares more than o's spare moves away are not asked: a victim's cost there is lowered to
// one more than the spare moves, which still bounds the assignment from below. A pawn of o
// changes file only by taking a unit of c, so each of its captures lands on a square of
// `lands` (proof_capture_squares of c): its ways as a pawn, to its target squares and into
// reach, are counted so (pawn_distances_landing). False only when every way needs more.
// With `slots`, the first victims stand each on a square of its own slot (captures a
// promoting pawn of the taker makes): their rows cost each unit's fewest moves to a square of
// the slot.
bool victims_possible(const SideMatrix& m, const Position& pos, Color o, Bitboard fixed, int victims, int moves_left,
                      CaptureReach& reach, const SideMatrix& taker, int taker_moves, int takes, Bitboard lands,
                      const std::vector<Bitboard>* slots = nullptr) {
    if (!m.valid || m.least >= kFar) return m.valid || m.rows < 16 || m.columns == 16;
    if (victims <= 0) return true;
    if (m.rows + victims > m.columns) return false;
    const int spare = moves_left + m.saving - m.least;
    if (spare < 0) return false;
    // No verdict with more than kVictimsSpare moves to spare: on the Natch positions the bound
    // refused 0.1% of those nodes, at the highest cost (the rings scanned grow with the spare).
    if (spare > kVictimsSpare) return true;
    const Color c = ~o;
    auto in_reach = [&](Square q) { return reach.at(taker, c, fixed, q) <= taker_moves; };
    std::array<int, 16> cost{};
    const int n_slots = slots ? std::min<int>(int(slots->size()), victims) : 0;
    std::array<std::array<int, 16>, 8> at_slot{};  // [slot][unit]
    int free_units = 0;  // columns the least assignment leaves unused that can be taken where they stand
    std::array<AssignmentRow, 16> rows = m.base;
    bool raised = false;  // whether a pawn's way as a pawn costs more than in m.base
    for (int i = 0; i < m.columns; ++i) {
        const Unit& u = m.units[i];
        int best = spare + 1;
        std::array<std::uint8_t, SQUARE_NB> landing;
        const std::uint8_t* as_pawn = u.rows[0];
        if (u.walk == PAWN) {
            landing = pawn_distances_landing(o, u.square, fixed, lands);
            for (int s = 0; s < SQUARE_NB; ++s) landing[size_t(s)] = std::max(landing[size_t(s)], u.rows[0][s]);
            as_pawn = landing.data();
            for (int r = 0; r < m.rows; ++r)
                if (m.wants[r] == PAWN && landing[m.squares[r]] > rows[size_t(r)][size_t(i)]) {
                    rows[size_t(r)][size_t(i)] = landing[m.squares[r]];
                    raised = true;
                }
        }
        // A unit taken on a slot stands there (a rook that may castle: also from its castled
        // square on), a pawn taken en passant beside the landing square, beyond it.
        const int ep_rank = o == WHITE ? 2 : 5;
        Square castled_at;
        const std::uint8_t* castled = n_slots ? castling_rook_row(pos, o, fixed, u.square, castled_at) : nullptr;
        for (int v = 0; v < n_slots && v < 8; ++v) {
            int best_at = kFar;
            if (u.walk != KING)
                for (Bitboard b = (*slots)[size_t(v)]; b;) {
                    const Square q = pop_lsb(b);
                    best_at = std::min<int>(best_at, u.walk == PAWN ? as_pawn[q] : u.rows[0][q]);
                    if (castled) best_at = std::min<int>(best_at, castled[q]);
                    if (u.walk != PAWN) continue;
                    for (int r = 1; r < 3; ++r)
                        if (u.rows[size_t(r)]) best_at = std::min<int>(best_at, u.rows[size_t(r)][q]);
                    if (rank_of(q) == ep_rank) best_at = std::min<int>(best_at, as_pawn[o == WHITE ? q + 8 : q - 8]);
                }
            at_slot[size_t(v)][size_t(i)] = best_at;
        }
        auto scan = [&](const std::uint8_t* d, Bitboard allowed) {
            for (int k = 0; k < best && k <= spare; ++k) {
                // The squares at exactly k moves, nearest first: the first one in reach decides.
                const Bitboard ring = squares_within(d, k) & ~squares_within(d, k - 1) & allowed;
                for (Bitboard b = ring; b;)
                    if (in_reach(pop_lsb(b))) {
                        best = k;
                        return;
                    }
            }
        };
        if (u.walk != KING) {
            // As a pawn it changes file only by taking: at most `takes` files.
            Bitboard files = ~Bitboard(0);
            if (u.walk == PAWN) {
                const int f = file_of(u.square);
                files = 0;
                for (int g = std::max(0, f - takes); g <= std::min(7, f + takes); ++g) files |= file_bb(g);
            }
            for (int r = 0; r < 3; ++r)
                if (u.rows[size_t(r)]) scan(r == 0 ? as_pawn : u.rows[size_t(r)], r == 0 ? files : ~Bitboard(0));
            // Taken en passant: its double step (one move) passes over the square the taker lands on.
            if (u.walk == PAWN && best > 1 && spare >= 1 && rank_of(u.square) == (o == WHITE ? 1 : 6)) {
                const Square over = Square(o == WHITE ? u.square + 8 : u.square - 8);
                const Square lands = Square(o == WHITE ? u.square + 16 : u.square - 16);
                if (!(fixed & (square_bb(over) | square_bb(lands))) && in_reach(over)) best = 1;
            }
            // Or now, when it has just made that step.
            if (u.walk == PAWN && pos.ep_square() != SQ_NONE &&
                pos.ep_square() == (o == WHITE ? u.square - 8 : u.square + 8) && in_reach(pos.ep_square()))
                best = 0;
            Square castled;
            if (const std::uint8_t* d = castling_rook_row(pos, o, fixed, u.square, castled)) scan(d, ~Bitboard(0));
        } else {
            best = kFar;  // a king is never taken
        }
        cost[size_t(i)] = best;
        if (best == 0 && !(m.duals.used & (1u << i))) ++free_units;
    }
    if (free_units >= victims && !raised && n_slots == 0) return true;  // the least assignment stands
    for (int v = 0; v < victims; ++v)
        for (int i = 0; i < m.columns; ++i)
            rows[size_t(m.rows + v)][size_t(i)] = v < n_slots ? at_slot[size_t(v)][size_t(i)] : cost[size_t(i)];
    return min_cost_assignment(rows.data(), m.rows + victims, m.columns) - m.saving <= moves_left;
}

// The ways side k can make a promotion its target forces: it has fewer units of walk w
// (queen, rook, bishop or knight) than the target, so one of its pawns P promotes on a square
// p of its last rank and ends on a target square of walk w. P's way takes only where the other
// side can lose units (`lands`, proof_capture_squares of that side), and k's assignment with
// P's column so restricted must fit in k's moves left. P changes file by at least the files
// between it and p, its first capture onto each of them landing on that file within the cone
// between P and p (and in `lands`), each taking a distinct unit of the other side that stands
// there. Per way the list of those slots goes into `ways`; true when some way needs no capture
// (then `ways` says nothing). No ways and false: k cannot make the promotion in time.
bool promotion_ways(const SideMatrix& mk, Color k, Walk w, Bitboard fixed, Bitboard lands, int k_moves, int victims,
                    std::vector<std::vector<Bitboard>>& ways) {
    ways.clear();
    if (!mk.valid || mk.least >= kFar) return true;  // no verdict here
    const int last = k == WHITE ? 7 : 0, seventh = k == WHITE ? 6 : 1, dir = k == WHITE ? 1 : -1;
    std::array<AssignmentRow, 16> cost;
    for (int i = 0; i < mk.columns; ++i) {
        const Unit& pawn = mk.units[i];
        if (pawn.walk != PAWN) continue;
        const std::array<std::uint8_t, SQUARE_NB> way = pawn_distances_landing(k, pawn.square, fixed, lands);
        for (int f = 0; f < 8; ++f) {
            const Square p = make_square(f, last);
            if (fixed & square_bb(p)) continue;
            // The promotion move: straight onto p, or taking onto it.
            int reach = way[make_square(f, seventh)];
            if (lands & square_bb(p))
                for (int g : {f - 1, f + 1})
                    if (g >= 0 && g <= 7) reach = std::min<int>(reach, way[make_square(g, seventh)]);
            if (reach >= kFar) continue;
            const Walk as = w == KNIGHT ? KNIGHT : QUEEN;  // a promoted rook or bishop: a queen's distances
            const std::uint8_t* from_p = blocked_distances_as(fixed, as, k, p, as);
            if (!from_p) continue;
            // P fills one target square r of walk w: row r's only unit, P's only row.
            int least = kFar;
            for (int r = 0; r < mk.rows; ++r) {
                if (mk.wants[r] != w) continue;
                const int mine = std::min<int>(kFar, reach + 1 + from_p[mk.squares[r]]);
                if (mine >= kFar) continue;
                cost = mk.base;
                for (int q = 0; q < mk.rows; ++q) cost[size_t(q)][size_t(i)] = kFar;
                for (int u = 0; u < mk.columns; ++u) cost[size_t(r)][size_t(u)] = kFar;
                cost[size_t(r)][size_t(i)] = mine;
                least = std::min(least, min_cost_assignment(cost.data(), mk.rows, mk.columns));
            }
            if (least >= kFar || least - mk.saving > k_moves) continue;
            const int from_file = file_of(pawn.square), changes = std::abs(f - from_file);
            if (changes == 0) {
                ways.clear();
                return true;
            }
            if (changes > victims) continue;
            const int step = f > from_file ? 1 : -1;
            std::vector<Bitboard> slots;
            for (int j = 1; j <= changes; ++j) {
                Bitboard slot = 0;
                for (int r = 0; r < 8; ++r) {
                    const int ahead = (r - rank_of(pawn.square)) * dir, behind = (last - r) * dir;
                    if (ahead >= j && behind >= changes - j) slot |= square_bb(make_square(from_file + j * step, r));
                }
                slots.push_back(slot & lands);
            }
            ways.push_back(std::move(slots));
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

// The number of units of each side and walk in the target.
using WalkCounts = std::array<std::array<int, WALK_NB>, COLOR_NB>;
WalkCounts target_walks(const Board& target) {
    WalkCounts n{};
    for (const Piece& p : target)
        if (!p.empty()) ++n[p.color][p.walk];
    return n;
}

}  // namespace

struct CaptureBoundCache::Impl {
    // The key's words: the side's units by walk, the fixed units, the castling sides, side
    // and count of the other side's units, then the floors on the side's units (three a word).
    static constexpr int kFloorWords = 4;
    using Key = std::array<Bitboard, 8 + kFloorWords>;
    struct Entry {
        Key key{};
        std::uint64_t generation = 0;
        bool used = false;
        SideMatrix matrix;
        CaptureReach reach;  // where the side can take, square by square as asked
    };
    static constexpr std::size_t kSize = 1024;
    const Board& target;
    // One table per side: a side's entry stays in place while the other side's is looked up.
    // Zeroed tables (an entry of zero bytes is unused), allocated at a side's first lookup: a
    // short search touches few of their pages.
    std::array<ZeroedTable<Entry>, COLOR_NB> entries{ZeroedTable<Entry>{nullptr, nullptr},
                                                     ZeroedTable<Entry>{nullptr, nullptr}};
    const WalkCounts walks;  // target_walks

    explicit Impl(const Board& t) : target(t), walks(target_walks(t)) {}

    // side_matrix(pos, target, c, fixed, floors), from the table when it holds it; `floors`
    // (null: none) are those on c's units, at most 3 * kFloorWords.
    const SideMatrix& matrix(const Position& pos, Color c, Bitboard fixed, const std::vector<UnitCostFloor>* floors) {
        return entry(pos, c, fixed, floors).matrix;
    }

    // The matrix's CaptureReach, ready to be asked; `captures`: the units of ~c the target
    // lacks (a function of the key).
    CaptureReach& reach(const Position& pos, Color c, Bitboard fixed, int captures,
                        const std::vector<UnitCostFloor>* floors) {
        Entry& e = entry(pos, c, fixed, floors);
        if (!e.reach.ready) e.reach.prepare(e.matrix, pos, c, fixed, captures);
        return e.reach;
    }

    Entry& entry(const Position& pos, Color c, Bitboard fixed, const std::vector<UnitCostFloor>* floors) {
        Key key{};
        for (int w = 0; w < 6; ++w) key[size_t(w)] = pos.pieces(c, Walk(KING + w));
        key[6] = fixed;
        key[7] = Bitboard(pos.castling_sides(c)) | Bitboard(c) << 8 | Bitboard(popcount(pos.pieces(~c))) << 16;
        for (size_t k = 0; floors && k < floors->size(); ++k) {
            const UnitCostFloor& f = (*floors)[k];
            const Bitboard word = Bitboard(f.unit) | Bitboard(f.to) << 6 | Bitboard(f.moves) << 12 | Bitboard(1) << 19;
            key[8 + k / 3] |= word << (20 * (k % 3));
        }
        if (!entries[c]) entries[c] = zeroed_table<Entry>(kSize);
        Entry& e = entries[c].get()[cache_slot(key, kSize)];
        const std::uint64_t generation = blocked_distances_generation();
        if (e.used && e.key == key && e.generation == generation) return e;
        e.matrix = side_matrix(pos, target, c, fixed, floors);
        e.reach.ready = false;
        // Rows asked for while building it may have dropped the tables: it then points into
        // the new ones.
        e.generation = blocked_distances_generation();
        e.key = key;
        e.used = true;
        return e;
    }
};

CaptureBoundCache::CaptureBoundCache(const Board& target) : impl_(std::make_unique<Impl>(target)) {}
CaptureBoundCache::~CaptureBoundCache() = default;

bool proof_captures_feasible(const Position& pos, const Board& target, Bitboard fixed,
                             std::array<int, COLOR_NB> moves_left, CaptureBoundCache* cache,
                             const std::vector<UnitCostFloor>* floors) {
    // The floors on each side's units (a side with more than the cache keys hold gets its
    // matrix and reach built here).
    std::array<std::vector<UnitCostFloor>, COLOR_NB> side_floors;
    if (floors)
        for (const UnitCostFloor& f : *floors)
            if (!pos.empty(f.unit) && f.moves > 0) side_floors[pos.piece_on(f.unit).color].push_back(f);
    std::array<const std::vector<UnitCostFloor>*, COLOR_NB> floored{nullptr, nullptr};
    std::array<bool, COLOR_NB> uncached{false, false};
    for (Color c : {WHITE, BLACK}) {
        if (!side_floors[c].empty()) floored[c] = &side_floors[c];
        uncached[c] = side_floors[c].size() > size_t(3 * CaptureBoundCache::Impl::kFloorWords);
    }
    const WalkCounts walks = cache ? cache->impl_->walks : target_walks(target);
    // Per side: the units of the target, and those on the board beyond them (which it loses).
    std::array<int, COLOR_NB> kept{}, surplus{};
    for (Color c : {WHITE, BLACK}) {
        for (int n : walks[c]) kept[c] += n;
        surplus[c] = std::max(0, popcount(pos.pieces(c)) - kept[c]);
    }
    // Without a cache the matrices are built here; with one they stay in its per-side tables.
    // Each side's matrix, reach and capture squares are worked out at their first use.
    std::array<SideMatrix, COLOR_NB> m;
    std::array<const SideMatrix*, COLOR_NB> built{nullptr, nullptr};
    auto matrix = [&](Color c) -> const SideMatrix& {
        if (!built[c]) {
            if (cache && !uncached[c]) {
                built[c] = &cache->impl_->matrix(pos, c, fixed, floored[c]);
            } else {
                m[c] = side_matrix(pos, target, c, fixed, floored[c]);
                built[c] = &m[c];
            }
        }
        return *built[c];
    };
    // Where side `taker` can take.
    std::array<CaptureReach, COLOR_NB> own;
    std::array<CaptureReach*, COLOR_NB> reaches{nullptr, nullptr};
    auto reach = [&](Color taker) -> CaptureReach& {
        if (!reaches[taker]) {
            if (cache && !uncached[taker]) {
                reaches[taker] = &cache->impl_->reach(pos, taker, fixed, surplus[~taker], floored[taker]);
            } else {
                own[taker].prepare(matrix(taker), pos, taker, fixed, surplus[~taker]);
                reaches[taker] = &own[taker];
            }
        }
        return *reaches[taker];
    };
    // Where side `owner` can lose a unit (none when it loses none).
    std::array<Bitboard, COLOR_NB> lands{};
    std::array<bool, COLOR_NB> lands_known{false, false};
    auto loses_on = [&](Color owner) {
        if (!lands_known[owner]) {
            lands[owner] = surplus[owner] > 0 ? capture_squares(matrix(owner), pos, moves_left[owner], fixed) : 0;
            lands_known[owner] = true;
        }
        return lands[owner];
    };
    // Each unit a side loses goes to a square where the other side can take it (first: it
    // refuses nearly every node the bound below refuses, and more). ~c takes at most the units
    // of c the target lacks, each where one of them can stand.
    for (Color c : {WHITE, BLACK}) {
        if (surplus[~c] <= 0) continue;
        if (!victims_possible(matrix(~c), pos, ~c, fixed, surplus[~c], moves_left[~c], reach(c), matrix(c),
                              moves_left[c], surplus[c], loses_on(c)))
            return false;
    }
    // A side k with fewer units of a walk than its target promotes a pawn, whose captures take
    // units of the other side c that stand where k's way lands: c's victims go there first.
    for (Color k : {WHITE, BLACK}) {
        if (!pos.pieces(k, PAWN)) continue;
        const Color c = ~k;
        for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) {
            if (walks[k][w] <= popcount(pos.pieces(k, w))) continue;
            std::vector<std::vector<Bitboard>> ways;
            if (promotion_ways(matrix(k), k, w, fixed, loses_on(c), moves_left[k], surplus[c], ways)) continue;
            bool possible = false;
            for (const std::vector<Bitboard>& slots : ways)
                if (victims_possible(matrix(c), pos, c, fixed, surplus[c], moves_left[c], reach(k), matrix(k),
                                     moves_left[k], surplus[k], loses_on(k), &slots)) {
                    possible = true;
                    break;
                }
            if (!possible) return false;
        }
    }
    // A side that must still take goes through a square where a unit it takes can stand.
    for (Color c : {WHITE, BLACK}) {
        if (surplus[~c] <= 0) continue;  // c takes nothing
        if (!capture_possible(matrix(c), pos, c, fixed, loses_on(~c), moves_left[c])) return false;
    }
    return true;
}

}  // namespace rebirth
