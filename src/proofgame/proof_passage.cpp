#include "rebirth/proof_passage.h"

#include <algorithm>
#include <string>
#include <unordered_set>
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

// One relaxed position: the members' squares (kGone once taken) and walks, each side's
// captures so far, its members' waste (moves beyond their distances to their fates) and the
// waste of the unit asked about.
struct State {
    std::array<std::uint8_t, kMaxMembers> square{};
    std::array<std::uint8_t, kMaxMembers> walk{};
    std::array<std::uint8_t, COLOR_NB> captures{};
    std::array<std::uint8_t, COLOR_NB> waste{};
    std::uint8_t own_waste = 0;

    std::string key(int n) const {
        std::string k;
        k.reserve(size_t(2 * n + 5));
        for (int i = 0; i < n; ++i) {
            k.push_back(char(square[size_t(i)]));
            k.push_back(char(walk[size_t(i)]));
        }
        k.push_back(char(captures[0]));
        k.push_back(char(captures[1]));
        k.push_back(char(waste[0]));
        k.push_back(char(waste[1]));
        k.push_back(char(own_waste));
        return k;
    }
};

class Passage {
  public:
    Passage(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget, int max_states)
        : pos_(pos), target_(target), fixed_(fixed), budget_(budget), max_states_(max_states) {
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
    bool slack(std::array<int, COLOR_NB>& out) const {
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
        }
        return true;
    }

    // The least waste of the unit asked about under the current fates, over the relaxed
    // histories (no more than best_: worse ones do not matter).
    void search_fates() {
        std::array<int, COLOR_NB> slack_left{};
        if (!slack(slack_left)) return;
        slack_ = slack_left;
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
        const int top = std::min(best_ - 1, slack_[members_[0].color]);
        for (int k = 0; k <= top; ++k) {
            bool aborted = false;
            if (reachable(k, aborted) || aborted) {
                // Found at k, or not known at k (every smaller waste was refuted): k bounds it.
                best_ = std::min(best_, k);
                return;
            }
        }
    }

    // The distance of member i on s with walk w to its fate.
    int to_fate(size_t i, int s, Walk w) const {
        return to_fate_[i][members_[i].walk == PAWN && w == PAWN ? 1 : 0][size_t(s)];
    }

    // Whether the fates can be reached with the unit asked about wasting at most `limit`
    // moves; `aborted` when the search stopped at max_states first.
    bool reachable(int limit, bool& aborted) {
        const int n = int(members_.size());
        State start;
        for (int i = 0; i < n; ++i) {
            start.square[size_t(i)] = std::uint8_t(members_[size_t(i)].start);
            start.walk[size_t(i)] = std::uint8_t(members_[size_t(i)].walk);
        }
        std::unordered_set<std::string> seen;
        std::vector<State> stack{start};
        seen.insert(start.key(n));
        while (!stack.empty()) {
            const State s = stack.back();
            stack.pop_back();
            if (done(s)) return true;
            if (int(seen.size()) > max_states_) {
                aborted = true;
                return false;
            }
            expand(s, limit, [&](const State& next) {
                if (seen.insert(next.key(n)).second) stack.push_back(next);
            });
        }
        return false;
    }

    bool done(const State& s) const {
        for (size_t i = 0; i < members_.size(); ++i) {
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
    void expand(const State& s, int limit, Emit&& emit) const {
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
            auto step = [&](Square to, Walk after, int victim, int captures) {
                State next = s;
                if (captures) {
                    if (s.captures[c] + captures > losses_[~c]) return;
                    next.captures[c] = std::uint8_t(s.captures[c] + captures);
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
                    if (s.waste[c] + waste > slack_[c]) return;
                    next.waste[c] = std::uint8_t(s.waste[c] + waste);
                    if (i == 0) {
                        if (s.own_waste + waste > limit) return;
                        next.own_waste = std::uint8_t(s.own_waste + waste);
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
                    // An unseen unit taken, or en passant a taken pawn of the group beside.
                    walks(to, [&](Walk after) { step(to, after, -1, 1); });
                    const int beside = member_on(s, make_square(file_of(to), rank_of(from)));
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
            if (!stays && s.captures[~c] < losses_[c]) {
                State next = s;
                next.square[i] = kGone;
                next.captures[~c] = std::uint8_t(s.captures[~c] + 1);
                emit(next);
            }
        }
    }

    const Position& pos_;
    const Board& target_;
    Bitboard fixed_;
    std::array<int, COLOR_NB> budget_;
    int max_states_;
    std::array<int, COLOR_NB> losses_{};
    std::array<int, COLOR_NB> castles_{};
    std::array<int, COLOR_NB> rest_columns_{};
    std::array<std::vector<Square>, COLOR_NB> rest_squares_;
    std::array<std::vector<AssignmentRow>, COLOR_NB> rest_rows_;
    std::vector<Member> members_;
    std::vector<Fate> fates_;
    std::array<std::array<std::array<std::uint8_t, SQUARE_NB>, 2>, kMaxMembers> to_fate_{};
    std::array<int, COLOR_NB> slack_{};
    int best_ = kFar;
};

}  // namespace

int passage_moves(const Position& pos, const Board& target, Bitboard fixed, std::array<int, COLOR_NB> budget,
                  Bitboard group, Square unit, Square to, int max_states) {
    Passage p(pos, target, fixed, budget, max_states);
    return p.solve(group, unit, to);
}

}  // namespace rebirth
