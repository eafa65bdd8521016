#include "rebirth/proof_passage.h"

#include <algorithm>
#include <string>
#include <unordered_map>
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
constexpr size_t kCaptures = 0, kWaste = 2, kOwn = 4;
using Counts = std::array<std::uint8_t, 5>;

// One relaxed position: the members' squares (kGone once taken) and walks, and the counts.
struct State {
    std::array<std::uint8_t, kMaxMembers> square{};
    std::array<std::uint8_t, kMaxMembers> walk{};
    Counts counts{};

    // The placement of the members (the counts apart).
    std::string key(int n) const {
        std::string k;
        k.reserve(size_t(2 * n));
        for (int i = 0; i < n; ++i) {
            k.push_back(char(square[size_t(i)]));
            k.push_back(char(walk[size_t(i)]));
        }
        return k;
    }
};

class Passage {
  public:
    Passage(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget, int max_states,
            int enough, const std::vector<UnitCostFloor>* floors)
        : pos_(pos),
          target_(target),
          fixed_(fixed),
          budget_(budget),
          max_states_(max_states),
          enough_(enough),
          floors_(floors) {
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
        return best_ >= kFar ? int(kFar) : distance + best_;
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
                for (size_t i = 0; i < units.size(); ++i) {
                    row[i] = walk_distance(fixed_, pos_.piece_on(units[i]).walk, c, units[i], t.walk, Square(x));
                    for (size_t k = 0; floors_ && k < floors_->size(); ++k)
                        if ((*floors_)[k].unit == units[i] && (*floors_)[k].to == Square(x))
                            row[i] = std::max(row[i], std::min((*floors_)[k].moves, int(kFar)));
                }
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
            for (Bitboard b = lossable_[c] & ~pos_.pieces(KING) & ~fixed_; b;) {  // fixed units are never taken
                const Square v = pop_lsb(b);
                const Walk w = pos_.piece_on(v).walk;
                if (w > PAWN) continue;
                for (int q = 0; q < SQUARE_NB; ++q) {
                    int d = kFar;
                    for (Walk as : {w, Walk(QUEEN), Walk(KNIGHT)})
                        if (as == w || w == PAWN) d = std::min(d, walk_distance(fixed_, w, c, v, as, Square(q)));
                    unseen_[c][size_t(q)] = std::min(unseen_[c][size_t(q)], d);
                    if (w == PAWN)
                        unseen_pawn_[c][size_t(q)] =
                            std::min(unseen_pawn_[c][size_t(q)], walk_distance(fixed_, w, c, v, PAWN, Square(q)));
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
            for (size_t r = 0; r < rest_squares_[c].size(); ++r) {
                const Square x = rest_squares_[c][r];
                bool filled = false;
                for (size_t i = 0; i < members_.size(); ++i) {
                    if (members_[i].color != c || fates_[i].square != x) continue;
                    filled = true;
                }
                if (!filled) rows.push_back(rest_rows_[c][r]);
            }
            for (size_t i = 0; i < members_.size(); ++i) {
                if (members_[i].color != c || fates_[i].square == SQ_NONE) continue;
                members +=
                    walk_distance(fixed_, members_[i].walk, c, members_[i].start, fates_[i].walk, fates_[i].square);
            }
            if (int(rows.size()) > rest_columns_[c]) return false;
            const int rest = rows.empty() ? 0 : min_cost_assignment(rows.data(), int(rows.size()), rest_columns_[c]);
            if (rest >= kFar) return false;
            out[c] = budget_[c] + castles_[c] - rest - members;
            if (out[c] < 0) return false;
            // The other units the side can lose: without one, the others still fill the
            // squares within the slack.
            lossable_[c] = 0;
            for (int j = 0; j < rest_columns_[c]; ++j) {
                std::vector<AssignmentRow> without = rows;
                for (AssignmentRow& row : without) row[size_t(j)] = kFar;
                const int others =
                    without.empty() ? 0 : min_cost_assignment(without.data(), int(without.size()), rest_columns_[c]);
                if (others < kFar && others - rest <= out[c]) lossable_[c] |= square_bb(rest_units_[c][size_t(j)]);
            }
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
        // The least waste k of the unit asked about, trying k = 0, 1, ...
        // The least waste of the unit asked about, up to `enough` (a fate whose histories all
        // waste more counts as that much; one not searched out within max_states, as none).
        const int top = std::min({best_ - 1, slack_[members_[0].color], enough_ - 1});
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
        std::vector<Counts> sums{Counts{}};
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
                    for (size_t k = 0; k < c.size(); ++k) c[k] = std::uint8_t(a[k] + b[k]);
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
        return c[kCaptures + WHITE] <= losses_[BLACK] && c[kCaptures + BLACK] <= losses_[WHITE] &&
               c[kWaste + WHITE] <= slack_[WHITE] && c[kWaste + BLACK] <= slack_[BLACK];
    }

    // Adds c to a list of counts none of which is at most another everywhere, unless one
    // already is at most c; false when it was not added.
    static bool add_least(std::vector<Counts>& list, const Counts& c) {
        auto at_most = [](const Counts& a, const Counts& b) {
            for (size_t k = 0; k < a.size(); ++k)
                if (a[k] > b[k]) return false;
            return true;
        };
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
        // Per placement of the members, the least counts it was reached with.
        std::unordered_map<std::string, std::vector<Counts>> seen;
        int positions = 1;
        std::vector<State> stack{start};
        seen[start.key(n)].push_back(start.counts);
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
                if (add_least(seen[next.key(n)], next.counts)) {
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
            // `captures` of c's.
            // `unseen`: the fewest moves the other side's unit taken unseen made to get there.
            auto step = [&](Square to, Walk after, int victim, int captures, int unseen = 0) {
                State next = s;
                if (captures) {
                    if (s.counts[kCaptures + c] + captures > losses_[~c]) return;
                    next.counts[kCaptures + c] = std::uint8_t(s.counts[kCaptures + c] + captures);
                }
                if (unseen) {
                    if (s.counts[kWaste + ~c] + unseen > slack_[~c]) return;
                    next.counts[kWaste + ~c] = std::uint8_t(s.counts[kWaste + ~c] + unseen);
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
                    if (s.counts[kWaste + c] + waste > slack_[c]) return;
                    next.counts[kWaste + c] = std::uint8_t(s.counts[kWaste + c] + waste);
                    if (i == 0) {
                        if (s.counts[kOwn] + waste > own_limit_) return;
                        next.counts[kOwn] = std::uint8_t(s.counts[kOwn] + waste);
                    }
                }
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
                    int unseen = unseen_[~c][to];
                    if (rank_of(from) == (c == WHITE ? 4 : 3)) unseen = std::min(unseen, unseen_pawn_[~c][ep]);
                    if (unseen < kFar) walks(to, [&](Walk after) { step(to, after, -1, 1, unseen); });
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
            if (!stays && s.counts[kCaptures + ~c] < losses_[c]) {
                State next = s;
                next.square[i] = kGone;
                next.counts[kCaptures + ~c] = std::uint8_t(s.counts[kCaptures + ~c] + 1);
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
    const std::vector<UnitCostFloor>* floors_;  // counted in the other units' assignment
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
    std::array<std::array<int, SQUARE_NB>, COLOR_NB> unseen_{}, unseen_pawn_{};  // unseen_costs()
};

}  // namespace

int passage_moves(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget,
                  Bitboard group, Square unit, Square to, int max_states, int enough,
                  const std::vector<UnitCostFloor>* floors) {
    Passage p(pos, target, fixed, budget, max_states, enough, floors);
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
