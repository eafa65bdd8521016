#include "rebirth/proof_passage.h"

#include <algorithm>
#include <vector>

#include "rebirth/assignment.h"
#include "rebirth/bitboard.h"
#include "rebirth/distance.h"

namespace rebirth {

namespace {

constexpr int kMaxMembers = 8;
constexpr std::uint8_t kGone = 64;  // a member's square once it is taken

// The fewest moves of a unit of walk w and colour c on `from` to stand on x with walk `as`,
// the fixed units as walls (a pawn promoted to a rook or bishop counted as a queen, never more).
int walk_distance(Bitboard fixed, Walk w, Color c, Square from, Walk as, Square x) {
    if (fixed & square_bb(from)) return from == x && w == as ? 0 : kFar;
    if (w != PAWN && as != w) return kFar;
    if (w == PAWN && as == KING) return kFar;
    const Walk row = w == PAWN && (as == ROOK || as == BISHOP) ? QUEEN : as;
    const std::uint8_t* d = blocked_distances_as(fixed, w, c, from, row);
    return d ? d[x] : kFar;
}

struct Member {
    Square start = SQ_NONE;
    Color color = WHITE;
    Walk walk = NO_WALK;
};

// A member's fate: the target square it fills with walk `walk`, or taken (square SQ_NONE).
struct Fate {
    Square square = SQ_NONE;
    Walk walk = NO_WALK;
};

// What a relaxed history has counted so far: each side's captures, each side's waste (its
// members' moves beyond their distances to their fates) and the waste of the unit asked about.
// Then, per side, what its units outside the group spend beyond its need when the group's
// members take them or are taken by them unseen: the moves of those taken (to where they were
// taken; distinct units, lost), the most one of them cost with what the others then need
// more, and over the unseen captures the least a unit that stays on the board spends on one
// (kFar: none) and the most a unit lost later spends on one (with the others' need), over
// those a lost unit may make, and the most a unit that stays spends on one of the others
// (which only such a unit can make).
constexpr size_t kCaptures = 0, kWaste = 2, kOwn = 4, kVictims = 5, kVictim = 7, kTakerStays = 9, kTakerLost = 11,
                 kTakerMustStay = 13;
using Counts = std::array<std::uint8_t, 15>;
constexpr Counts kNoCounts{0, 0, 0, 0, 0, 0, 0, 0, 0, kFar, kFar, 0, 0, 0, 0};

// Whether counts a are at most b everywhere (a history with a does all b's can).
bool at_most(const Counts& a, const Counts& b) {
    for (size_t k = 0; k < a.size(); ++k)
        if (a[k] > b[k]) return false;
    return true;
}

// One relaxed position: the members' squares (kGone once taken) and walks, and the counts.
struct State {
    std::array<std::uint8_t, kMaxMembers> square{};
    std::array<std::uint8_t, kMaxMembers> walk{};
    Counts counts = kNoCounts;

    // The placement of the members (the counts apart), ten bits a member.
    std::pair<std::uint64_t, std::uint64_t> key() const {
        std::uint64_t lo = 0, hi = 0;
        for (size_t i = 0; i < kMaxMembers; ++i) {
            const std::uint64_t v = std::uint64_t(square[i]) | std::uint64_t(walk[i]) << 7;
            if (i < 6)
                lo |= v << (10 * i);
            else
                hi |= v << (10 * (i - 6));
        }
        return {lo, hi};
    }
};

// Per placement of the members, the least counts it was reached with (none of them at most
// another everywhere): an open-addressing table of placements, each with a list of counts.
class PlacementTable {
  public:
    PlacementTable() : slots_(1024) {}
    size_t size() const { return used_; }
    // Adds c for `key` unless some counts already there are at most c everywhere; false then.
    bool add(std::pair<std::uint64_t, std::uint64_t> key, const Counts& c) {
        if (2 * (used_ + 1) > slots_.size()) grow();
        Slot& slot = find(key);
        if (slot.head < 0) {
            slot.key = key;
            ++used_;
        }
        // One pass: the list's counts are none at most another, so none at most c follows
        // one that c is at most (those are unlinked).
        for (int* link = &slot.head; *link >= 0;) {
            Node& o = nodes_[size_t(*link)];
            if (at_most(o.counts, c)) return false;
            if (at_most(c, o.counts))
                *link = o.next;
            else
                link = &o.next;
        }
        nodes_.push_back({c, slot.head});
        slot.head = int(nodes_.size()) - 1;
        return true;
    }

  private:
    struct Slot {
        std::pair<std::uint64_t, std::uint64_t> key{};
        int head = -1;
    };
    struct Node {
        Counts counts;
        int next;
    };
    Slot& find(std::pair<std::uint64_t, std::uint64_t> key) {
        std::uint64_t h = key.first * 0x9E3779B97F4A7C15ull ^ key.second * 0xC2B2AE3D27D4EB4Full;
        h ^= h >> 32;
        h *= 0xD6E8FEB86659FD93ull;
        h ^= h >> 32;
        for (size_t i = size_t(h) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1))
            if (slots_[i].head < 0 || slots_[i].key == key) return slots_[i];
    }
    void grow() {
        std::vector<Slot> old(slots_.size() * 2);
        old.swap(slots_);
        for (const Slot& o : old)
            if (o.head >= 0) find(o.key) = o;
    }
    std::vector<Slot> slots_;
    std::vector<Node> nodes_;
    size_t used_ = 0;
};

class Passage {
  public:
    Passage(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget, int max_states,
            int enough)
        : pos_(pos), target_(target), fixed_(fixed), budget_(budget), max_states_(max_states), enough_(enough) {
        for (Color c : {WHITE, BLACK}) {
            int on_target = 0;
            for (int s = 0; s < SQUARE_NB; ++s)
                if (!target[size_t(s)].empty() && target[size_t(s)].color == c) ++on_target;
            losses_[c] = popcount(pos.pieces(c)) - on_target;
        }
    }

    // See passage_moves.
    int solve(Bitboard group, Square unit, Square to) {
        const Piece u = pos_.piece_on(unit);
        const Piece want = target_[to];
        if (u.empty() || want.empty() || want.color != u.color) return kFar;
        if (fixed_ & (square_bb(unit) | square_bb(to))) return unit == to && want == u ? 0 : int(kFar);  // never moves
        const int distance = walk_distance(fixed_, u.walk, u.color, unit, want.walk, to);
        if (distance >= kFar) return kFar;
        if (losses_[WHITE] < 0 || losses_[BLACK] < 0 || budget_[WHITE] < 0 || budget_[BLACK] < 0) return kFar;
        // The members: the unit first, then the others the group names that may be followed.
        members_.push_back({unit, u.color, u.walk});
        for (Bitboard b = group & pos_.pieces() & ~square_bb(unit) & ~fixed_; b;) {
            const Square s = pop_lsb(b);
            const Piece p = pos_.piece_on(s);
            if (p.walk == KING) continue;
            if (p.walk > PAWN) return distance;  // fairy walks: no verdict
            if (members_.size() == kMaxMembers) return distance;
            members_.push_back({s, p.color, p.walk});
        }
        if (u.walk == KING || u.walk > PAWN) return distance;
        if (!rest_matrices()) return kFar;
        fates_.assign(members_.size(), Fate{});
        fates_[0] = {to, want.walk};
        best_ = kFar;
        std::array<int, COLOR_NB> taken{};
        std::array<bool, SQUARE_NB> used{};
        used[to] = true;
        choose(1, taken, used);
        if (best_ >= kFar) return kFar;
        // A knight changes its square's colour with each move: its count keeps the parity of its
        // distance.
        if (u.walk == KNIGHT && best_ % 2) ++best_;
        return distance + best_;
    }

  private:
    // Each side's units outside the group against its target squares (plain distances): the
    // matrix the fates' leftover squares are assigned from.
    bool rest_matrices() {
        for (Color c : {WHITE, BLACK}) {
            std::vector<Square> units;
            for (Bitboard b = pos_.pieces(c); b;) {
                const Square s = pop_lsb(b);
                if (std::none_of(members_.begin(), members_.end(), [&](const Member& m) { return m.start == s; }))
                    units.push_back(s);
            }
            if (units.size() > 16) return false;
            rest_units_[c] = units;
            rest_columns_[c] = int(units.size());
            rest_squares_[c].clear();
            rest_rows_[c].clear();
            for (int x = 0; x < SQUARE_NB; ++x) {
                const Piece t = target_[size_t(x)];
                if (t.empty() || t.color != c) continue;
                AssignmentRow row{};
                row.fill(kFar);
                for (size_t i = 0; i < units.size(); ++i)
                    row[i] = walk_distance(fixed_, pos_.piece_on(units[i]).walk, c, units[i], t.walk, Square(x));
                rest_squares_[c].push_back(Square(x));
                rest_rows_[c].push_back(row);
            }
            // Castling moves two units in one move; a king that castles and ends on its square
            // makes three moves its distance counts as none, more than castling saves.
            const Bitboard king = pos_.pieces(c, KING);
            const bool home = king && target_[lsb(king)] == pos_.piece_on(lsb(king));
            castles_[c] = pos_.castling_sides(c) != 0 && !home ? 1 : 0;
        }
        return true;
    }

    // Per side and square, the fewest moves of a unit of that side outside the group that it
    // can lose (lossable_; not a king; a pawn also promoted) to stand there, and of such a
    // pawn alone.
    void unseen_costs() {
        for (Color c : {WHITE, BLACK}) {
            unseen_[c].fill(kFar);
            unseen_pawn_[c].fill(kFar);
            unseen_lost_[c].fill(kFar);
            unseen_pawn_lost_[c].fill(kFar);
            for (Bitboard b = lossable_[c] & ~pos_.pieces(KING) & ~fixed_; b;) {  // fixed units are never taken
                const Square v = pop_lsb(b);
                const Walk w = pos_.piece_on(v).walk;
                if (w > PAWN) continue;
                for (int q = 0; q < SQUARE_NB; ++q) {
                    int d = kFar;
                    for (Walk as : {w, Walk(QUEEN), Walk(KNIGHT)})
                        if (as == w || w == PAWN) d = std::min(d, walk_distance(fixed_, w, c, v, as, Square(q)));
                    const int penalty = penalty_[c][size_t(column_of(c, v))];
                    unseen_[c][size_t(q)] = std::min(unseen_[c][size_t(q)], d);
                    unseen_lost_[c][size_t(q)] = std::min(unseen_lost_[c][size_t(q)], std::min(d + penalty, int(kFar)));
                    if (w == PAWN) {
                        const int step = walk_distance(fixed_, w, c, v, PAWN, Square(q));
                        unseen_pawn_[c][size_t(q)] = std::min(unseen_pawn_[c][size_t(q)], step);
                        unseen_pawn_lost_[c][size_t(q)] =
                            std::min(unseen_pawn_lost_[c][size_t(q)], std::min(step + penalty, int(kFar)));
                    }
                }
            }
        }
    }

    // The column of unit v among side c's units outside the group.
    int column_of(Color c, Square v) const {
        return int(std::find(rest_units_[c].begin(), rest_units_[c].end(), v) - rest_units_[c].begin());
    }

    // Per side and square, what that side's units outside the group spend beyond its need when
    // one of them takes there (a member taken unseen): taker_stays_ for a unit that stays on
    // the board, its way through there to a target square (the rest's assignment with its
    // costs so raised, bounded by the assignment's dual solution, its column then used);
    // taker_lost_ for one lost later, its way there and what the others then need more.
    void taker_costs() {
        for (Color c : {WHITE, BLACK}) {
            taker_stays_[c].fill(kFar);
            taker_lost_[c].fill(kFar);
            const std::vector<AssignmentRow>& rows = rest_left_[c];
            const AssignmentDuals& duals = rest_duals_[c];
            for (int j = 0; j < rest_columns_[c]; ++j) {
                const Square v = rest_units_[c][size_t(j)];
                const Piece p = pos_.piece_on(v);
                if ((fixed_ & square_bb(v)) || p.walk > PAWN) continue;
                for (int q = 0; q < SQUARE_NB; ++q) {
                    std::array<int, 3> there{kFar, kFar, kFar};  // to q as itself, as a queen, as a knight
                    const std::array<Walk, 3> as{p.walk, QUEEN, KNIGHT};
                    for (size_t a = 0; a < 3; ++a)
                        if (a == 0 || p.walk == PAWN) there[a] = walk_distance(fixed_, p.walk, c, v, as[a], Square(q));
                    const int nearest = std::min({there[0], there[1], there[2]});
                    if (nearest >= kFar) continue;
                    if ((lossable_[c] & square_bb(v)) && p.walk != KING)
                        taker_lost_[c][size_t(q)] =
                            std::min(taker_lost_[c][size_t(q)], std::min(nearest + penalty_[c][size_t(j)], int(kFar)));
                    if (rows.empty()) continue;
                    int column = kFar;
                    for (size_t r = 0; r < rows.size(); ++r) {
                        const Square t = left_squares_[c][r];
                        int via = kFar;
                        const Walk want = target_[t].walk;
                        for (size_t a = 0; a < 3; ++a) {
                            if (there[a] >= kFar) continue;
                            // Promoted on the way: on as a queen (no farther than a rook or
                            // bishop) or a knight.
                            const Walk on = a == 0 ? want : a == 2 ? KNIGHT : want == KNIGHT ? NO_WALK : QUEEN;
                            if (a > 0 && (on == NO_WALK || want == PAWN || want == KING)) continue;
                            via = std::min(via, there[a] + walk_distance(fixed_, as[a], c, Square(q), on, t));
                        }
                        column = std::min(column, std::min(via, int(kFar)) - duals.row[r]);
                    }
                    if (column < kFar)
                        taker_stays_[c][size_t(q)] =
                            std::min(taker_stays_[c][size_t(q)], std::max(0, column - duals.column[size_t(j)]));
                }
            }
        }
    }

    // Gives members i.. their fates (a target square of their colour and walk not yet used,
    // or taken within their side's losses), then searches each complete choice.
    void choose(size_t i, std::array<int, COLOR_NB>& taken, std::array<bool, SQUARE_NB>& used) {
        if (best_ == 0) return;
        if (i == members_.size()) {
            search_fates();
            return;
        }
        const Member& m = members_[i];
        if (taken[m.color] < losses_[m.color]) {
            ++taken[m.color];
            fates_[i] = Fate{};
            choose(i + 1, taken, used);
            --taken[m.color];
        }
        for (int x = 0; x < SQUARE_NB; ++x) {
            const Piece t = target_[size_t(x)];
            if (used[size_t(x)] || t.empty() || t.color != m.color || (fixed_ & square_bb(Square(x)))) continue;
            if (walk_distance(fixed_, m.walk, m.color, m.start, t.walk, Square(x)) >= kFar) continue;
            used[size_t(x)] = true;
            fates_[i] = {Square(x), t.walk};
            choose(i + 1, taken, used);
            used[size_t(x)] = false;
        }
    }

    // The moves each side's members may waste under the fates: its budget (plus one with a
    // castling right) less its other units' least assignment to the squares the members leave
    // and less the members' distances to their fates. False when a side has none.
    bool slack(std::array<int, COLOR_NB>& out) {
        for (Color c : {WHITE, BLACK}) {
            int members = 0;
            std::vector<AssignmentRow> rows;
            std::vector<Square> left;
            for (size_t r = 0; r < rest_squares_[c].size(); ++r) {
                const Square x = rest_squares_[c][r];
                bool filled = false;
                for (size_t i = 0; i < members_.size(); ++i) {
                    if (members_[i].color != c || fates_[i].square != x) continue;
                    filled = true;
                }
                if (!filled) {
                    rows.push_back(rest_rows_[c][r]);
                    left.push_back(x);
                }
            }
            for (size_t i = 0; i < members_.size(); ++i) {
                if (members_[i].color != c || fates_[i].square == SQ_NONE) continue;
                members +=
                    walk_distance(fixed_, members_[i].walk, c, members_[i].start, fates_[i].walk, fates_[i].square);
            }
            if (int(rows.size()) > rest_columns_[c]) return false;
            AssignmentDuals duals;
            const int rest =
                rows.empty() ? 0 : min_cost_assignment(rows.data(), int(rows.size()), rest_columns_[c], &duals);
            if (rest >= kFar) return false;
            out[c] = budget_[c] + castles_[c] - rest - members;
            if (out[c] < 0) return false;
            // The other units the side can lose: without one, the others still fill the
            // squares within the slack.
            lossable_[c] = 0;
            penalty_[c].fill(kFar);
            for (int j = 0; j < rest_columns_[c]; ++j) {
                std::vector<AssignmentRow> without = rows;
                for (AssignmentRow& row : without) row[size_t(j)] = kFar;
                const int others =
                    without.empty() ? 0 : min_cost_assignment(without.data(), int(without.size()), rest_columns_[c]);
                if (others < kFar && others - rest <= out[c]) {
                    lossable_[c] |= square_bb(rest_units_[c][size_t(j)]);
                    penalty_[c][size_t(j)] = others - rest;
                }
            }
            rest_left_[c] = rows;
            left_squares_[c] = left;
            rest_duals_[c] = duals;
        }
        return true;
    }

    // The least waste of the unit asked about under the current fates, over the relaxed
    // histories (no more than best_: worse ones do not matter).
    void search_fates() {
        std::array<int, COLOR_NB> slack_left{};
        if (!slack(slack_left)) return;
        slack_ = slack_left;
        unseen_costs();
        taker_costs();
        // Distances of each member staying on the board to its fate, per square and walk.
        for (size_t i = 0; i < members_.size(); ++i) {
            auto& rows = to_fate_[i];
            for (auto& row : rows) row.fill(std::uint8_t(kFar));
            if (fates_[i].square == SQ_NONE) continue;
            for (int s = 0; s < SQUARE_NB; ++s) {
                if (fixed_ & square_bb(Square(s))) continue;
                if (fates_[i].walk != PAWN)  // a piece's distances are symmetric: from the fate square
                    rows[0][size_t(s)] =
                        std::uint8_t(std::min<int>(kFar, walk_distance(fixed_, fates_[i].walk, members_[i].color,
                                                                       fates_[i].square, fates_[i].walk, Square(s))));
                if (members_[i].walk == PAWN)
                    rows[1][size_t(s)] =
                        std::uint8_t(std::min<int>(kFar, walk_distance(fixed_, PAWN, members_[i].color, Square(s),
                                                                       fates_[i].walk, fates_[i].square)));
            }
        }
        // The least waste of the unit asked about, up to `enough` (a fate whose histories all
        // waste more counts as that much; one not searched out within max_states, as none).
        int top = std::min({best_ - 1, slack_[members_[0].color], enough_ - 1});
        // A knight wastes moves in pairs (each move changes its square's colour): an odd waste
        // is never the least.
        if (members_[0].walk == KNIGHT) top -= top % 2;
        if (top < 0) return;
        bool aborted = false;
        const int least = least_own(top, aborted);
        best_ = std::min(best_, aborted ? 0 : least < 0 ? top + 1 : least);
    }

    // The squares member i may stand on in a history where its side wastes at most `slack`
    // moves (the unit asked about at most `own`): for a member that stays, those whose way
    // from its square and on to its fate takes at most its distance and that many more (as a
    // pawn, or promoted to its fate's walk); for a taken one, those within that many moves;
    // for a pawn also the squares beside those where it may take en passant.
    Bitboard zone(int i, int own) const {
        const Member& m = members_[size_t(i)];
        const Fate& f = fates_[size_t(i)];
        const int spare = i == 0 ? std::min(own, slack_[m.color]) : slack_[m.color];
        Bitboard z = square_bb(m.start);
        if (f.square == SQ_NONE) {
            for (Walk as : {m.walk, Walk(QUEEN), Walk(KNIGHT)}) {
                if (as != m.walk && m.walk != PAWN) continue;
                if (const std::uint8_t* d = blocked_distances_as(fixed_, m.walk, m.color, m.start, as))
                    z |= squares_within(d, spare);
            }
        } else {
            const int allowed = to_fate(size_t(i), m.start, m.walk) + spare;
            for (Walk as : {m.walk, f.walk}) {
                if (as != m.walk && m.walk != PAWN) continue;
                const Walk row = m.walk == PAWN && (as == ROOK || as == BISHOP) ? QUEEN : as;
                const std::uint8_t* d = blocked_distances_as(fixed_, m.walk, m.color, m.start, row);
                if (!d) continue;
                for (int s = 0; s < SQUARE_NB; ++s)
                    if (d[s] + to_fate(size_t(i), s, as) <= allowed) z |= square_bb(Square(s));
            }
        }
        if (m.walk == PAWN) {
            const Bitboard ep = z & rank_bb(m.color == WHITE ? 4 : 3);
            z |= ((ep << 1) & ~file_bb(0)) | ((ep >> 1) & ~file_bb(7));
        }
        return z;
    }

    // The least waste, at most `own`, of the unit asked about with which the fates can be
    // reached (-1: none); `aborted` when a search needed more than max_states positions first. The members whose
    // zones meet form clusters: no member of one ever blocks or takes a member of another (a
    // slider crosses only squares it could stop on as soon), so the clusters' histories
    // interleave freely and only their counts add up.
    int least_own(int own, bool& aborted) {
        const int n = int(members_.size());
        std::array<Bitboard, kMaxMembers> zones{};
        for (int i = 0; i < n; ++i) zones[size_t(i)] = zone(i, own);
        std::array<int, kMaxMembers> cluster{};
        for (int i = 0; i < n; ++i) cluster[size_t(i)] = i;
        for (bool merged = true; merged;) {
            merged = false;
            for (int i = 0; i < n; ++i)
                for (int j = i + 1; j < n; ++j)
                    if ((zones[size_t(i)] & zones[size_t(j)]) && cluster[size_t(i)] != cluster[size_t(j)]) {
                        const int from = std::max(cluster[size_t(i)], cluster[size_t(j)]);
                        const int to = std::min(cluster[size_t(i)], cluster[size_t(j)]);
                        for (int k = 0; k < n; ++k)
                            if (cluster[size_t(k)] == from) cluster[size_t(k)] = to;
                        merged = true;
                    }
        }
        // Each cluster's least counts at its goal, then their sums within the limits.
        std::vector<Counts> sums{kNoCounts};
        for (int head = 0; head < n; ++head) {
            unsigned mask = 0;
            for (int i = 0; i < n; ++i)
                if (cluster[size_t(i)] == head) mask |= 1u << i;
            if (!mask) continue;
            std::vector<Counts> ends;
            if (!explore(mask, own, ends, mask == (1u << n) - 1)) {
                aborted = true;
                return -1;
            }
            std::vector<Counts> next;
            for (const Counts& a : sums)
                for (const Counts& b : ends) {
                    Counts c;
                    for (size_t k = 0; k < c.size(); ++k) c[k] = std::uint8_t(std::min(99, a[k] + b[k]));
                    for (size_t k :
                         {kVictim, kVictim + 1, kTakerLost, kTakerLost + 1, kTakerMustStay, kTakerMustStay + 1})
                        c[k] = std::max(a[k], b[k]);
                    for (size_t k : {kTakerStays, kTakerStays + 1}) c[k] = std::min(a[k], b[k]);
                    if (within(c)) add_least(next, c);
                }
            sums.swap(next);
            if (sums.empty()) return -1;
        }
        int least = own + 1;
        for (const Counts& c : sums) least = std::min(least, int(c[kOwn]));
        return least;
    }

    // The distance of member i on s with walk w to its fate.
    int to_fate(size_t i, int s, Walk w) const {
        return to_fate_[i][members_[i].walk == PAWN && w == PAWN ? 1 : 0][size_t(s)];
    }

    // Whether counts stay within the losses and the slack.
    bool within(const Counts& c) const {
        return c[kCaptures + WHITE] <= losses_[BLACK] && c[kCaptures + BLACK] <= losses_[WHITE] && spent(c, WHITE) &&
               spent(c, BLACK);
    }

    // Whether side c's moves beyond its need stay within its slack: its members' waste, and
    // what its units outside the group spend on the unseen captures. Those taken are distinct
    // units, lost; a unit that takes and stays is none of them (one such unit may make several
    // captures: the most counts); a unit that takes and is lost later may be one of them. So
    // the victims' moves add up with what a capture only a unit that stays can make costs; of
    // the others, either some was by a unit that stays (the victims' moves and the least such
    // cost add up) or none was (the most of each kind counts).
    bool spent(const Counts& c, Color side) const {
        const int victims = c[kVictims + side];
        const int lost = std::max({victims, int(c[kVictim + side]), int(c[kTakerLost + side])});
        const int extra = std::max({victims + c[kTakerMustStay + side], std::min(victims + c[kTakerStays + side], lost),
                                    int(c[kVictim + side])});
        return c[kWaste + side] + extra <= slack_[side];
    }

    // Adds c to a list of counts none of which is at most another everywhere, unless one
    // already is at most c; false when it was not added.
    static bool add_least(std::vector<Counts>& list, const Counts& c) {
        for (const Counts& o : list)
            if (at_most(o, c)) return false;
        list.erase(std::remove_if(list.begin(), list.end(), [&](const Counts& o) { return at_most(c, o); }),
                   list.end());
        list.push_back(c);
        return true;
    }

    // The least counts with which the members of `mask` (the others left out) reach their
    // fates, the unit asked about wasting at most `own` moves, into `ends` (`alone`: the
    // members are all the group's, and one end where that unit wastes nothing is enough); false when the search needed
    // more than max_states positions.
    bool explore(unsigned mask, int own, std::vector<Counts>& ends, bool alone) {
        const int n = int(members_.size());
        active_ = mask;
        own_limit_ = own;
        State start;
        for (int i = 0; i < n; ++i) {
            start.square[size_t(i)] = (mask >> i) & 1 ? std::uint8_t(members_[size_t(i)].start) : kGone;
            start.walk[size_t(i)] = std::uint8_t(members_[size_t(i)].walk);
        }
        PlacementTable seen;
        int positions = 1;
        std::vector<State> stack{start};
        seen.add(start.key(), start.counts);
        while (!stack.empty()) {
            const State s = stack.back();
            stack.pop_back();
            if (done(s)) {
                add_least(ends, s.counts);
                // Alone, a goal reached without waste by the unit asked about settles it.
                if (alone && s.counts[kOwn] == 0) return true;
                continue;
            }
            if (positions > max_states_) return false;
            expand(s, [&](const State& next) {
                if (seen.add(next.key(), next.counts)) {
                    ++positions;
                    stack.push_back(next);
                }
            });
        }
        return true;
    }

    bool done(const State& s) const {
        for (size_t i = 0; i < members_.size(); ++i) {
            if (!((active_ >> i) & 1)) continue;
            if (fates_[i].square == SQ_NONE) {
                if (s.square[i] != kGone) return false;
            } else if (s.square[i] != fates_[i].square || Walk(s.walk[i]) != fates_[i].walk) {
                return false;
            }
        }
        return true;
    }

    // The member on square q, or -1.
    int member_on(const State& s, Square q) const {
        for (size_t i = 0; i < members_.size(); ++i)
            if (s.square[i] == q) return int(i);
        return -1;
    }

    // Every relaxed step from s: a member's move (a capture of a member the fates take, or of
    // an unseen unit by a pawn's diagonal step), or a taken member's removal by an unseen unit.
    template <class Emit>
    void expand(const State& s, Emit&& emit) const {
        Bitboard occupied = fixed_;
        std::array<Bitboard, COLOR_NB> side{};
        for (size_t i = 0; i < members_.size(); ++i) {
            if (s.square[i] == kGone) continue;
            occupied |= square_bb(Square(s.square[i]));
            side[members_[i].color] |= square_bb(Square(s.square[i]));
        }
        for (size_t i = 0; i < members_.size(); ++i) {
            if (s.square[i] == kGone) continue;
            const Color c = members_[i].color;
            const Square from = Square(s.square[i]);
            const Walk w = Walk(s.walk[i]);
            const bool stays = fates_[i].square != SQ_NONE;
            // A step to `to` as walk `after`, taking the member `victim` (or -1) and counting
            // `captures` of c's; `unseen` (-1: none): the fewest moves the other side's unit taken
            // unseen made to get there, `unseen_lost` with what its side's other units then need.
            auto step = [&](Square to, Walk after, int victim, int captures, int unseen = -1, int unseen_lost = 0) {
                State next = s;
                if (captures) {
                    if (s.counts[kCaptures + c] + captures > losses_[~c]) return;
                    next.counts[kCaptures + c] = std::uint8_t(s.counts[kCaptures + c] + captures);
                }
                if (unseen >= 0) {
                    next.counts[kVictims + ~c] = std::uint8_t(std::min(99, s.counts[kVictims + ~c] + unseen));
                    next.counts[kVictim + ~c] =
                        std::max(s.counts[kVictim + ~c], std::uint8_t(std::min(99, unseen_lost)));
                }
                if (victim >= 0) next.square[size_t(victim)] = kGone;
                next.square[i] = std::uint8_t(to);
                next.walk[i] = std::uint8_t(after);
                {
                    // A member that stays wastes what its move adds to its distance to its fate;
                    // every move of a member the fates take is spent beyond the side's need.
                    int waste = 1;
                    if (stays) {
                        const int d_to = to_fate(i, to, after);
                        if (d_to >= kFar) return;
                        waste = 1 + d_to - to_fate(i, from, w);
                    }
                    next.counts[kWaste + c] = std::uint8_t(std::min(99, s.counts[kWaste + c] + waste));
                    if (i == 0) {
                        if (s.counts[kOwn] + waste > own_limit_) return;
                        next.counts[kOwn] = std::uint8_t(s.counts[kOwn] + waste);
                    }
                }
                if (!spent(next.counts, c) || !spent(next.counts, ~c)) return;
                emit(next);
            };
            // Landing on `to` (a capture when an enemy member stands there).
            auto land = [&](Square to, Walk after) {
                const int victim = member_on(s, to);
                if (victim < 0) {
                    step(to, after, -1, 0);
                } else if (members_[size_t(victim)].color != c && fates_[size_t(victim)].square == SQ_NONE) {
                    step(to, after, victim, 1);
                }
            };
            if (w == PAWN) {
                const int up = c == WHITE ? 8 : -8;
                const int last = c == WHITE ? 7 : 0;
                const int second = c == WHITE ? 1 : 6;
                // The walks a pawn arriving on `to` may have: promoted on the last rank (to its
                // fate's walk; a taken pawn as a queen or knight, which move as any promoted unit
                // can), else a pawn (a pawn that stays as a pawn never reaches the last rank).
                auto walks = [&](Square to, auto&& f) {
                    if (rank_of(to) != last) {
                        f(PAWN);
                    } else if (!stays) {
                        f(QUEEN);
                        f(KNIGHT);
                    } else if (fates_[i].walk != PAWN) {
                        f(fates_[i].walk);
                    }
                };
                const Square one = Square(int(from) + up);
                if (!(occupied & square_bb(one))) {
                    walks(one, [&](Walk after) { step(one, after, -1, 0); });
                    const Square two = Square(int(one) + up);
                    if (rank_of(from) == second && !(occupied & square_bb(two))) step(two, PAWN, -1, 0);
                }
                for (Bitboard b = pawn_attacks(c, from) & ~fixed_ & ~side[c]; b;) {
                    const Square to = pop_lsb(b);
                    const int victim = member_on(s, to);
                    if (victim >= 0) {
                        if (fates_[size_t(victim)].square == SQ_NONE)
                            walks(to, [&](Walk after) { step(to, after, victim, 1); });
                        continue;
                    }
                    // An unseen unit taken (which came there: one of the other side's units left
                    // out, lost, so its moves are beyond the side's need; en passant, a pawn
                    // beside), or en passant a taken pawn of the group beside.
                    const Square ep = make_square(file_of(to), rank_of(from));
                    int unseen = unseen_[~c][to], lost = unseen_lost_[~c][to];
                    if (rank_of(from) == (c == WHITE ? 4 : 3)) {
                        unseen = std::min(unseen, unseen_pawn_[~c][ep]);
                        lost = std::min(lost, unseen_pawn_lost_[~c][ep]);
                    }
                    if (unseen < kFar) walks(to, [&](Walk after) { step(to, after, -1, 1, unseen, lost); });
                    const int beside = member_on(s, ep);
                    if (beside >= 0 && members_[size_t(beside)].color != c && Walk(s.walk[size_t(beside)]) == PAWN &&
                        fates_[size_t(beside)].square == SQ_NONE)
                        step(to, PAWN, beside, 1);
                }
            } else {
                Bitboard to = 0;
                if (w == KNIGHT) to = knight_attacks(from);
                if (w == BISHOP || w == QUEEN) to |= bishop_attacks(from, occupied);
                if (w == ROOK || w == QUEEN) to |= rook_attacks(from, occupied);
                for (to &= ~fixed_ & ~side[c]; to;) land(pop_lsb(to), w);
                // A rook that may castle from its corner: castling moves it to the d- or f-file.
                if (w == ROOK && from == members_[i].start && (pos_.castling_rights() & square_bb(from))) {
                    const Square castled = make_square(file_of(from) == 0 ? 3 : 5, rank_of(from));
                    if (!(occupied & (between_bb(from, castled) | square_bb(castled)))) step(castled, ROOK, -1, 0);
                }
            }
            // A taken member may be taken by an unseen unit at any time.
            if (!stays && s.counts[kCaptures + ~c] < losses_[c] &&
                std::min(taker_stays_[~c][from], taker_lost_[~c][from]) < kFar) {
                State next = s;
                next.square[i] = kGone;
                next.counts[kCaptures + ~c] = std::uint8_t(s.counts[kCaptures + ~c] + 1);
                if (taker_lost_[~c][from] >= kFar) {
                    next.counts[kTakerMustStay + ~c] = std::max(
                        s.counts[kTakerMustStay + ~c], std::uint8_t(std::min<int>(kFar, taker_stays_[~c][from])));
                } else {
                    next.counts[kTakerStays + ~c] =
                        std::min(s.counts[kTakerStays + ~c], std::uint8_t(std::min<int>(kFar, taker_stays_[~c][from])));
                    next.counts[kTakerLost + ~c] =
                        std::max(s.counts[kTakerLost + ~c], std::uint8_t(taker_lost_[~c][from]));
                }
                if (!spent(next.counts, ~c)) continue;
                emit(next);
            }
        }
    }

    const Position& pos_;
    const Board& target_;
    Bitboard fixed_;
    std::array<int, COLOR_NB> budget_;
    int max_states_;
    int enough_;
    std::array<int, COLOR_NB> losses_{};
    std::array<int, COLOR_NB> castles_{};
    std::array<int, COLOR_NB> rest_columns_{};
    std::array<std::vector<Square>, COLOR_NB> rest_units_;  // the columns' units
    std::array<Bitboard, COLOR_NB> lossable_{};             // slack(): those the side may lose
    std::array<std::vector<Square>, COLOR_NB> rest_squares_;
    std::array<std::vector<AssignmentRow>, COLOR_NB> rest_rows_;
    std::vector<Member> members_;
    std::vector<Fate> fates_;
    std::array<std::array<std::array<std::uint8_t, SQUARE_NB>, 2>, kMaxMembers> to_fate_{};
    std::array<int, COLOR_NB> slack_{};
    int best_ = kFar;
    unsigned active_ = 0;  // the members explore() follows
    int own_limit_ = 0;    // and the waste it allows the unit asked about
    std::array<std::array<int, SQUARE_NB>, COLOR_NB> unseen_{}, unseen_pawn_{};            // unseen_costs()
    std::array<std::array<int, SQUARE_NB>, COLOR_NB> unseen_lost_{}, unseen_pawn_lost_{};  // with penalty_
    std::array<std::array<int, SQUARE_NB>, COLOR_NB> taker_stays_{}, taker_lost_{};        // taker_costs()
    std::array<std::array<int, 16>, COLOR_NB> penalty_{};         // slack(): losing each lossable unit
    std::array<std::vector<AssignmentRow>, COLOR_NB> rest_left_;  // slack(): the rest's rows
    std::array<std::vector<Square>, COLOR_NB> left_squares_;      // their target squares
    std::array<AssignmentDuals, COLOR_NB> rest_duals_;            // the rest's dual solution
};

}  // namespace

int passage_moves(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget,
                  Bitboard group, Square unit, Square to, int max_states, int enough) {
    Passage p(pos, target, fixed, budget, max_states, enough);
    return p.solve(group, unit, to);
}

std::vector<UnitCostFloor> passage_raises(const Position& pos, const Board& target, Bitboard fixed,
                                          std::array<int, COLOR_NB> budget, int max_states, int enough) {
    std::vector<UnitCostFloor> raises;
    // The pawns with no target pawn square of their colour ahead on their file.
    Bitboard pawns = 0;
    for (Bitboard b = pos.pieces(PAWN) & ~fixed; b;) {
        const Square s = pop_lsb(b);
        const Color c = pos.piece_on(s).color;
        bool ahead = false;
        for (int r = rank_of(s) + (c == WHITE ? 1 : -1); r >= 0 && r <= 7 && !ahead; r += c == WHITE ? 1 : -1) {
            const Piece t = target[make_square(file_of(s), r)];
            ahead = t.walk == PAWN && t.color == c;
        }
        if (!ahead) pawns |= square_bb(s);
    }
    for (int x = 0; x < SQUARE_NB; ++x) {
        const Square to = Square(x);
        const Piece want = target[to];
        if (want.empty() || want.walk == KING || want.walk == PAWN || want.walk > PAWN || (fixed & square_bb(to)))
            continue;
        // The units that must pass `to`.
        Bitboard passers = 0;
        for (Bitboard b = pos.pieces() & ~pos.pieces(KING) & ~fixed & ~square_bb(to); b;) {
            const Square v = pop_lsb(b);
            const Piece p = pos.piece_on(v);
            if (p.walk > PAWN || target[v] == p) continue;
            if (one_move_squares(p.walk, p.color, v, fixed) &&
                !one_move_squares(p.walk, p.color, v, fixed | square_bb(to)))
                passers |= square_bb(v);
        }
        if (!passers) continue;
        const Bitboard near = king_attacks(to) & pos.pieces() & ~pos.pieces(KING) & ~fixed;
        for (Bitboard b = pos.pieces(want.color) & ~pos.pieces(KING) & ~fixed; b;) {
            const Square u = pop_lsb(b);
            const Piece p = pos.piece_on(u);
            if (p.walk > PAWN) continue;
            const int d = walk_distance(fixed, p.walk, p.color, u, want.walk, to);
            if (d >= kFar || d > budget[want.color]) continue;
            const Bitboard group =
                square_bb(u) | passers | near | pawns | (pos.piece_on(to).empty() ? 0 : square_bb(to));
            if (popcount(group & ~fixed) > kMaxMembers) continue;
            const int moves = passage_moves(pos, target, fixed, budget, group, u, to, max_states, enough);
            if (moves > d) raises.push_back({u, to, moves});
        }
    }
    return raises;
}

}  // namespace rebirth
