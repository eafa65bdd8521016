#include "rebirth/legality_proof.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <optional>
#include <sstream>

#include "rebirth/bitboard.h"
#include "rebirth/distance.h"
#include "rebirth/legality.h"
#include "rebirth/proof_builder.h"
#include "rebirth/retro.h"
#include "rebirth/retro_cage.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/retro_closure.h"

namespace rebirth {

namespace {

constexpr int kRetractions = 2;           // single moves retracted at most before a game is looked for
constexpr size_t kFewLastMoves = 12;      // retracted only when the sequences are at most this many
constexpr long kPromotionNodes = 2000;    // positions per search of a promotion line's game, timed
constexpr size_t kPromotionLines = 6;     // promotion lines tried at most
constexpr size_t kStagings = 4;           // positions before all the promotions tried at most
constexpr long kStagingTailNodes = 4000;  // positions per search from one of them to the diagram

// Whether `game` replays from the game array (replay_game) to the diagram: its units (colour
// and walk), its side to move, every castling right it claims still held, and its en passant
// square (when it gives one) the last move's.
bool replays_to(const std::vector<Move>& game, const Setup& diagram) {
    const std::optional<Setup> end = replay_game(game, {});
    if (!end || !same_units(end->board, diagram.board) || end->side_to_move != diagram.side_to_move) return false;
    if ((diagram.castling & ~end->castling) != 0) return false;
    if (diagram.ep_square != SQ_NONE) {
        if (game.empty()) return false;
        const Move& last = game.back();
        const int step = int(last.to) - int(last.from);
        if (end->board[last.to].walk != PAWN || (step != 16 && step != -16) ||
            Square((int(last.from) + int(last.to)) / 2) != diagram.ep_square)
            return false;
    }
    return true;
}

// Whether the unit on s (a queen, rook, bishop or knight) may well come from a promotion, so
// that taking the promotion back is worth a search: its side has more units of its walk than
// the game array (two bishops on squares of one colour), or the game-array bishop of its
// squares' colour is shut in at home by its side's pawns that never moved, or no game-array
// square of its walk reaches it round the pawns on the board, or the unit has no empty square
// next to it (a knight's leap away) to have come from.
bool promotion_likely(const Setup& d, Square s) {
    const Piece p = d.board[s];
    const auto own = [&](int f, int r, Walk w) {
        return on_board(f, r) && d.board[make_square(f, r)].walk == w && d.board[make_square(f, r)].color == p.color;
    };
    int same = 0, same_colour_bishops = 0;
    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        if (d.board[sq].walk != p.walk || d.board[sq].color != p.color) continue;
        ++same;
        if ((file_of(Square(sq)) + rank_of(Square(sq))) % 2 == (file_of(s) + rank_of(s)) % 2) ++same_colour_bishops;
    }
    if (same > (p.walk == QUEEN ? 1 : 2)) return true;
    const int back = p.color == WHITE ? 0 : 7, pawns = p.color == WHITE ? 1 : 6;
    if (p.walk == BISHOP) {
        if (same_colour_bishops > 1) return true;
        const int home = (2 + back) % 2 == (file_of(s) + rank_of(s)) % 2 ? 2 : 5;  // c or f file
        if (make_square(home, back) != s && own(home - 1, pawns, PAWN) && own(home + 1, pawns, PAWN)) return true;
    }
    // Its walk reaches s from none of its side's game-array squares of that walk when every pawn
    // on the board is a wall: it came in, if at all, before a pawn stood where one stands now
    // (a bishop on a7 behind the pawns b6 and c7).
    Bitboard pawns_now = 0;
    for (int sq = 0; sq < SQUARE_NB; ++sq)
        if (d.board[sq].walk == PAWN) pawns_now |= square_bb(Square(sq));
    bool reached = false;
    for (int f = 0; f < 8 && !reached; ++f)
        if (BACK_RANK_WALKS[f] == p.walk)
            if (const std::uint8_t* row =
                    blocked_distances_as(pawns_now, p.walk, p.color, make_square(f, back), p.walk))
                reached = row[s] < kFar;
    if (!reached) return true;
    static constexpr int kNear[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    static constexpr int kLeaps[8][2] = {{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}};
    for (int i = 0; i < 8; ++i) {
        const bool diagonal = i >= 4;
        if ((p.walk == ROOK && diagonal) || (p.walk == BISHOP && !diagonal)) continue;
        const int* step = p.walk == KNIGHT ? kLeaps[i] : kNear[i];
        const int f = file_of(s) + step[0], r = rank_of(s) + step[1];
        if (on_board(f, r) && d.board[make_square(f, r)].empty()) return false;
    }
    return true;
}

// The depth-first search of promotion_retractions: `c` the side whose promotion is taken back,
// each line with its rank (0: the promotion took a game-array unit at home, 1: straight, 2:
// any other capture).
class PromotionLines {
  public:
    explicit PromotionLines(Color c) : c_(c) {}

    std::vector<std::pair<int, std::vector<UnMove>>> lines;

    // pos: c's move is taken back next; `t` the followed unit's square; `path` its own moves
    // back still allowed; `blocker` whether a pawn may still step back.
    void search(const Setup& pos, Square t, int path, bool blocker) {
        std::vector<UnMove> own;
        generate_unmoves(pos, own);
        const Piece unit = pos.board[t];
        if (relative_rank(c_, rank_of(t)) == 7) {
            // c's last rank is the other side's first: its game-array unit there (a king is
            // never taken).
            const Walk home = BACK_RANK_WALKS[file_of(t)];
            for (const UnMove& u : own) {
                if (u.move.to != t || u.move.kind != MoveKind::Promotion) continue;
                int rank = 1;
                if (u.uncaptured != NO_WALK) {
                    if (home != KING && u.uncaptured != home) continue;
                    rank = home != KING ? 0 : 2;
                }
                line_.push_back(u);
                lines.push_back({rank, line_});
                line_.pop_back();
            }
            // A pawn of c on a square the promoting pawn came from steps back (or takes back
            // its capture, the taken unit then moving off first).
            const int from_rank = c_ == WHITE ? 6 : 1;  // the promoting pawn's rank
            if (blocker)
                for (const UnMove& u : own) {
                    const int df = file_of(u.move.to) - file_of(t);
                    if (u.move.kind != MoveKind::Normal || u.uncaptured == PAWN || pos.board[u.move.to].walk != PAWN ||
                        pos.board[u.move.to].color != c_ || rank_of(u.move.to) != from_rank || df < -1 || df > 1)
                        continue;
                    clear_ = u.uncaptured != NO_WALK ? u.move.to : SQ_NONE;
                    then_other_side(pos, u, t, path, false);
                    clear_ = SQ_NONE;
                }
        }
        if (path == 0) return;
        for (const UnMove& u : own) {
            if (u.move.to != t || u.move.kind != MoveKind::Normal || u.uncaptured != NO_WALK) continue;
            if (last_rank_distance(unit.walk, u.move.from) > path - 1) continue;
            then_other_side(pos, u, u.move.from, path - 1, blocker);
        }
    }

  private:
    // The fewest moves of a c unit of walk w from s onto c's last rank, on an empty board.
    int last_rank_distance(Walk w, Square s) const {
        int best = 99;
        for (int f = 0; f < 8; ++f)
            best = std::min(best, empty_distance(w, c_, s, make_square(f, c_ == WHITE ? 7 : 0)));
        return best;
    }

    // Takes c's retraction u back, then a move of the other side, and goes on from there.
    void then_other_side(const Setup& pos, const UnMove& u, Square t, int path, bool blocker) {
        line_.push_back(u);
        other_side_first(retract_keeping_rights(pos, u), t, path, blocker);
        line_.pop_back();
    }

  public:
    // pos: the other side's move is taken back next (nothing uncaptured, at most two tried),
    // then the search goes on. First the unit c's pawn just took back, off its square (only
    // it: the promoting pawn needs the square); else the unit the other side moved back before,
    // going back and forth (the game then needs no more of its moves); else its king; else
    // another unit.
    void other_side_first(const Setup& pos, Square t, int path, bool blocker) {
        std::vector<UnMove> other;
        generate_unmoves(pos, other);
        const UnMove* previous = line_.size() >= 2 ? &line_[line_.size() - 2] : nullptr;
        const Square clear = clear_;
        const auto order = [&](const UnMove& o) {
            if (o.move.to == clear) return -1;
            if (previous && o.move.to == previous->move.from && o.move.from == previous->move.to) return 0;
            return pos.board[o.move.to].walk == KING ? 1 : 2;
        };
        std::stable_sort(other.begin(), other.end(),
                         [&](const UnMove& a, const UnMove& b) { return order(a) < order(b); });
        int tried = 0;
        clear_ = SQ_NONE;
        for (const UnMove& o : other) {
            if (o.move.kind != MoveKind::Normal || o.uncaptured != NO_WALK) continue;
            if (clear != SQ_NONE && o.move.to != clear) break;  // the square must be free
            line_.push_back(o);
            search(retract_keeping_rights(pos, o), t, path, blocker);
            line_.pop_back();
            if (++tried == 2) break;
        }
    }

  private:
    Color c_;
    std::vector<UnMove> line_;
    Square clear_ = SQ_NONE;  // the square the other side's next move back must leave
};

}  // namespace

std::vector<std::vector<UnMove>> promotion_retractions(const Setup& diagram, int max_path, size_t max_lines) {
    std::vector<std::pair<int, std::vector<UnMove>>> lines;
    for (Color c : {~diagram.side_to_move, diagram.side_to_move}) {
        PromotionLines search(c);
        for (int sq = 0; sq < SQUARE_NB; ++sq) {
            const Piece p = diagram.board[sq];
            if (p.empty() || p.color != c) continue;
            if (p.walk != QUEEN && p.walk != ROOK && p.walk != BISHOP && p.walk != KNIGHT) continue;
            if (!promotion_likely(diagram, Square(sq))) continue;
            // The side that did not move last: its move comes after one of the other side's.
            if (c == diagram.side_to_move)
                search.other_side_first(diagram, Square(sq), max_path, true);
            else
                search.search(diagram, Square(sq), max_path, true);
        }
        lines.insert(lines.end(), search.lines.begin(), search.lines.end());
    }
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second.size() < b.second.size();
    });
    std::vector<std::vector<UnMove>> out;
    for (auto& [rank, line] : lines) {
        if (out.size() == max_lines) break;
        out.push_back(std::move(line));
    }
    return out;
}

namespace {

// One way of taking a promoted unit's promotion back in promotion_stagings: the promotion
// square, the promoting pawn's square before it, the other side's unit the promotion took there
// (NO_WALK: straight), and the way's rank (0: that unit is the other side's game-array unit of
// the square and the diagram lacks one of its walk, 1: straight, 2: another capture) and the
// promoted unit's fewest moves from the promotion square to its square.
struct PromotionWay {
    Square unit, q, r;
    Walk victim;
    int rank, moves;
};

// The ways of taking back the promotion of the unit on s, best first, at most kWaysPerUnit: a
// promotion square of its side's last rank, empty in the diagram or s itself, from which its
// walk reaches s round the pawns that never moved (those on their side's second rank), and an
// empty square behind it or diagonally behind it for the pawn.
std::vector<PromotionWay> promotion_ways(const Setup& d, Square s, Bitboard walls) {
    constexpr size_t kWaysPerUnit = 4;
    const Piece p = d.board[s];
    const Color c = p.color;
    const int last = c == WHITE ? 7 : 0, before = c == WHITE ? 6 : 1;
    std::array<int, WALK_NB> have{};
    for (const Piece& u : d.board)
        if (!u.empty() && u.color != c) ++have[u.walk];
    std::vector<PromotionWay> ways;
    for (int fq = 0; fq < 8; ++fq) {
        const Square q = make_square(fq, last);
        if (q != s && !d.board[q].empty()) continue;
        int moves = 0;
        if (q != s) {
            const std::uint8_t* row = blocked_distances_as(walls, p.walk, c, q, p.walk);
            if (!row || row[s] >= kFar) continue;
            moves = row[s];
        }
        for (int df = -1; df <= 1; ++df) {
            if (fq + df < 0 || fq + df > 7) continue;
            const Square r = make_square(fq + df, before);
            if (r != s && !d.board[r].empty()) continue;
            Walk victim = NO_WALK;
            int rank = 1;
            if (df != 0) {
                victim = BACK_RANK_WALKS[fq];
                if (victim == KING) continue;
                const int array_count = victim == QUEEN ? 1 : 2;
                rank = have[victim] < array_count ? 0 : 2;
            }
            ways.push_back({s, q, r, victim, rank, moves});
        }
    }
    std::stable_sort(ways.begin(), ways.end(), [](const PromotionWay& a, const PromotionWay& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.moves < b.moves;
    });
    if (ways.size() > kWaysPerUnit) ways.resize(kWaysPerUnit);
    return ways;
}

// The diagram with the promotions of `ways` taken back: each promoted unit gone, the unit its
// promotion took on the promotion square, its pawn on the square behind or, when a pawn there
// would attack the other side's king, up to two squares further back on that file (empty
// squares); nothing when no square fits.
std::optional<Setup> staged_setup(const Setup& d, const std::vector<const PromotionWay*>& ways) {
    Setup t = d;
    t.ep_square = SQ_NONE;
    for (const PromotionWay* w : ways) t.board[w->unit] = Piece{};
    for (const PromotionWay* w : ways)
        if (w->victim != NO_WALK) t.board[w->q] = Piece{w->victim, ~d.board[w->unit].color};
    Bitboard kings[COLOR_NB] = {0, 0};  // neither taken back nor covered by what is put back
    for (int sq = 0; sq < SQUARE_NB; ++sq)
        if (t.board[sq].walk == KING) kings[t.board[sq].color] |= square_bb(Square(sq));
    for (const PromotionWay* w : ways) {
        const Color c = d.board[w->unit].color;
        const Bitboard king = kings[~c];
        const int back = c == WHITE ? -1 : 1;
        std::optional<Square> at;
        for (int k = 0; k <= 2; ++k) {
            const Square r = make_square(file_of(w->r), rank_of(w->r) + back * k);
            if (!t.board[r].empty()) break;
            if (!(pawn_attacks(c, r) & king)) {
                at = r;
                break;
            }
        }
        if (!at) return std::nullopt;
        t.board[*at] = Piece{PAWN, c};
    }
    return t;
}

}  // namespace

std::vector<Setup> promotion_stagings(const Setup& diagram, Bitboard promoted, size_t max_positions) {
    constexpr size_t kMaxUnits = 8, kMaxTries = 256, kChoicesPerSize = 4096;
    Bitboard walls = 0;
    std::vector<std::vector<PromotionWay>> units;
    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        const Piece p = diagram.board[sq];
        if (p.walk == PAWN && rank_of(Square(sq)) == (p.color == WHITE ? 1 : 6)) walls |= square_bb(Square(sq));
    }
    for (int sq = 0; sq < SQUARE_NB; ++sq) {
        const Piece p = diagram.board[sq];
        if (p.empty() || (p.walk != QUEEN && p.walk != ROOK && p.walk != BISHOP && p.walk != KNIGHT)) continue;
        if (!(promoted & square_bb(Square(sq))) && !promotion_likely(diagram, Square(sq))) continue;
        // A unit with no way (a bishop shut in at home) is no promoted unit: left as it is.
        if (auto ways = promotion_ways(diagram, Square(sq), walls); !ways.empty()) units.push_back(std::move(ways));
    }
    if (units.empty() || units.size() > kMaxUnits) return {};
    // The choices of one way for each of `size` units (the others left as they are, original
    // units), with distinct promotion squares and pawn squares: all the units first, then one
    // fewer, and so on (one of two queens may be the game array's); for each size the least
    // total rank first, then the fewest moves; at most kChoicesPerSize of each size.
    struct Choice {
        size_t size;
        int rank, moves;
        std::vector<const PromotionWay*> ways;
    };
    std::vector<Choice> choices;
    std::vector<const PromotionWay*> pick;
    const auto walk = [&](auto&& self, size_t i, size_t size, int rank, int moves, Bitboard used,
                          size_t& left) -> void {
        if (left == 0) return;
        if (pick.size() == size) {
            choices.push_back({size, rank, moves, pick});
            --left;
            return;
        }
        if (units.size() - i < size - pick.size()) return;
        for (const PromotionWay& w : units[i]) {
            const Bitboard squares = square_bb(w.q) | square_bb(w.r);
            if (used & squares) continue;
            pick.push_back(&w);
            self(self, i + 1, size, rank + w.rank, moves + w.moves, used | squares, left);
            pick.pop_back();
        }
        self(self, i + 1, size, rank, moves, used, left);
    };
    for (size_t size = units.size(); size >= 1; --size) {
        size_t left = kChoicesPerSize;
        walk(walk, 0, size, 0, 0, 0, left);
    }
    std::stable_sort(choices.begin(), choices.end(), [](const Choice& a, const Choice& b) {
        if (a.size != b.size) return a.size > b.size;
        return a.rank != b.rank ? a.rank < b.rank : a.moves < b.moves;
    });
    std::vector<Setup> out;
    size_t tries = 0;
    for (const Choice& choice : choices) {
        if (out.size() >= max_positions || tries >= kMaxTries) break;
        const std::optional<Setup> staged = staged_setup(diagram, choice.ways);
        if (!staged) continue;
        // Two choices may lead to one position (two bishops of a colour swapping promotion
        // squares): it is kept once.
        if (std::any_of(out.begin(), out.end(), [&](const Setup& t) { return t.board == staged->board; })) continue;
        for (Color stm : {diagram.side_to_move, ~diagram.side_to_move}) {
            Setup t = *staged;
            t.side_to_move = stm;
            ++tries;
            if (analyze_orthodox_legality(t.board, t.side_to_move, t.castling).illegal) continue;
            out.push_back(t);
            break;
        }
    }
    return out;
}

const char* LegalityProof::verdict_name() const {
    switch (verdict) {
        case Verdict::Legal:
            return "legal";
        case Verdict::Illegal:
            return "illegal";
        case Verdict::Unresolved:
            break;
    }
    return "unresolved";
}

std::string marks_broken(const std::vector<Move>& game, const LegalityMarks& marks) {
    std::array<bool, SQUARE_NB> promoted{};  // the unit on a square came from a promotion
    std::array<bool, SQUARE_NB> pawn{};      // the unit on a square is a pawn
    for (int f = 0; f < 8; ++f) pawn[make_square(f, 1)] = pawn[make_square(f, 6)] = true;
    Bitboard home = marks.taken_home;  // marked taken there, still there
    for (size_t i = 0; i < game.size(); ++i) {
        const Move& m = game[i];
        const std::string half_move = "half-move " + std::to_string(i + 1);
        if (const Bitboard hit = touched_squares(m) & marks.frozen)
            return half_move + " moves the unit of " + square_name(lsb(hit)) + ", marked frozen";
        if (const Bitboard hit = touched_squares(m) & home) {
            const Square sq = lsb(hit);
            if (sq != m.to) return half_move + " moves the unit of " + square_name(sq) + ", marked taken there";
            if (pawn[m.from])
                return half_move + " takes the unit of " + square_name(sq) +
                       " with a pawn, marked taken there by a piece";
            home &= ~hit;
        }
        promoted[m.to] = promoted[m.from] || m.kind == MoveKind::Promotion;
        promoted[m.from] = false;
        pawn[m.to] = pawn[m.from] && m.kind != MoveKind::Promotion;
        pawn[m.from] = false;
    }
    if (home) return "the unit of " + square_name(lsb(home)) + ", marked taken there, is never taken in the game";
    for (Bitboard b = marks.promoted; b;)
        if (const Square sq = pop_lsb(b); !promoted[sq])
            return "the unit on " + square_name(sq) + ", marked promoted, is no promoted unit in the game";
    return "";
}

LegalityProof judge_legality(const Setup& diagram, int depth, const BuildLimits& limits, const LegalityMarks& marks) {
    LegalityProof proof;
    const LegalityVerdict v =
        analyze_orthodox_legality(diagram.board, diagram.side_to_move, diagram.castling, diagram.ep_square, marks);
    if (v.illegal) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason = v.reason;
        return proof;
    }
    if (!may_be_legal(diagram, depth)) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason =
            "every position one single move back (and up to " + std::to_string(depth) + " further back) is illegal";
        return proof;
    }
    if (cage_refutes(diagram)) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason =
            "caged units: no history of the units walled in near the kings or by each other, taken back "
            "move by move, leads to the game array";
        return proof;
    }
    if (closure_refutes(diagram, kClosurePositions)) {
        proof.verdict = LegalityProof::Verdict::Illegal;
        proof.reason =
            "no history: the positions the diagram can be taken back to, move by move, are finitely many "
            "and none is the game array";
        return proof;
    }
    // The diagram's last single moves, when it leaves few (a check that only an en passant
    // capture or a promotion gives, say): a game to the position they lead back to, then
    // those moves. Then the diagram gets half the time, and the sequences share the rest.
    std::vector<std::vector<std::vector<UnMove>>> levels{possible_last_moves(diagram, 1, depth)};
    const bool few = !levels[0].empty() && levels[0].size() <= kFewLastMoves;
    // The sequences of the last n single moves (worked out once).
    const auto sequences = [&](int n) -> const std::vector<std::vector<UnMove>>& {
        while (int(levels.size()) < n) levels.push_back(possible_last_moves(diagram, int(levels.size()) + 1, depth));
        return levels[size_t(n - 1)];
    };
    // Lines that take a promotion back (promotion_retractions), tried like the sequences.
    const std::vector<std::vector<UnMove>> promotions = promotion_retractions(diagram, 3, kPromotionLines);
    // A game to the position `line` leads back to, followed by its moves, within `back`.
    // Takes `game` as the proof when it replays to the diagram and keeps the marks.
    const auto accept = [&](std::vector<Move>& game) {
        if (!replays_to(game, diagram) || !marks_broken(game, marks).empty()) return false;
        proof.verdict = LegalityProof::Verdict::Legal;
        proof.game = std::move(game);
        return true;
    };
    const auto through = [&](const std::vector<UnMove>& line, const BuildLimits& back) {
        // A line that moves a frozen unit breaks its mark: no game for it.
        if (std::any_of(line.begin(), line.end(),
                        [&](const UnMove& u) { return (touched_squares(u.move) & marks.frozen) != 0; }))
            return false;
        Setup earlier = diagram;
        for (const UnMove& u : line) earlier = retract_keeping_rights(earlier, u);
        auto game = build_proof_game(earlier, back, marks.frozen);
        if (!game) return false;
        for (auto it = line.rbegin(); it != line.rend(); ++it) game->push_back(it->move);
        return accept(*game);
    };
    // A game to the diagram alone, within `seconds` (0: no limit, the nodes of `limits`).
    const auto direct = [&](double seconds) {
        BuildLimits first = limits;
        first.seconds = seconds;
        auto game = build_proof_game(diagram, first, marks.frozen);
        return game && accept(*game);
    };
    // The few sequences alone, sharing `back_seconds`.
    const auto through_few = [&](double back_seconds) {
        BuildLimits back = limits;
        back.max_nodes = std::max(1000L, limits.max_nodes / 2);
        for (int n = 1; few && n <= kRetractions; ++n) {
            const std::vector<std::vector<UnMove>>& last = sequences(n);
            if (last.empty() || last.size() > kFewLastMoves) break;
            back.seconds = back_seconds / double(kRetractions * last.size());
            for (const std::vector<UnMove>& seq : last)
                if (through(seq, back)) return true;
        }
        return false;
    };
    // A game to the diagram within `diagram_seconds`, else (few sequences) to the positions
    // the sequences lead back to, sharing `back_seconds` (0: no limit, the nodes of `limits`).
    const auto attempt = [&](double diagram_seconds, double back_seconds) {
        return direct(diagram_seconds) || through_few(back_seconds);
    };
    // Games to the positions the promotions taken back lead to, each search within half the
    // nodes of `limits` (at most kPromotionNodes within a time limit: a line's game comes
    // within a few thousand positions when it comes at all), all of them within `seconds` (0:
    // no limit).
    const auto promoted = [&](double seconds) {
        BuildLimits back = limits;
        back.max_nodes = std::max(1000L, limits.max_nodes / 2);
        if (seconds > 0) back.max_nodes = std::min(back.max_nodes, kPromotionNodes);
        const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
        for (const std::vector<UnMove>& line : promotions) {
            if (seconds > 0) {
                back.seconds = std::chrono::duration<double>(end - std::chrono::steady_clock::now()).count();
                if (back.seconds <= 0) break;
            }
            if (through(line, back)) return true;
        }
        return false;
    };
    // Games through the positions before all the promotions at once (promotion_stagings): from
    // the game array to one, then from it to the diagram. The second legs (a few dozen
    // half-moves) come first, for all of them, since they fail at once for most positions that
    // lead nowhere; then the first legs of those that have one. Each leg within the nodes of
    // `limits`, the second at most kStagingTailNodes; within a time limit the second legs share
    // a quarter of `seconds` and each first leg gets half of the rest left (the last all of it).
    const std::vector<Setup> stagings = promotion_stagings(diagram, marks.promoted, kStagings);
    const auto staged = [&](double seconds) {
        using Clock = std::chrono::steady_clock;
        const auto now = [] { return Clock::now(); };
        const Clock::time_point tails_end = now() + std::chrono::duration_cast<Clock::duration>(
                                                        std::chrono::duration<double>(seconds / 4)),
                                end = now() + std::chrono::duration_cast<Clock::duration>(
                                                  std::chrono::duration<double>(seconds));
        const auto share = [&](Clock::time_point until, size_t ways) {
            return std::chrono::duration<double>(until - now()).count() / double(ways);
        };
        std::vector<std::pair<const Setup*, std::vector<Move>>> tails;
        for (size_t i = 0; i < stagings.size(); ++i) {
            BuildLimits leg = limits;
            leg.max_nodes = std::min(leg.max_nodes, kStagingTailNodes);
            if (seconds > 0 && (leg.seconds = share(tails_end, stagings.size() - i)) <= 0) break;
            if (auto tail = build_game_between(stagings[i], diagram, leg, marks.frozen))
                tails.emplace_back(&stagings[i], std::move(*tail));
        }
        for (size_t i = 0; i < tails.size(); ++i) {
            BuildLimits leg = limits;
            // Half of the time left, all of it for the last: the first positions (all the
            // promotions, the best ways) are the likeliest.
            if (seconds > 0 && (leg.seconds = share(end, i + 1 == tails.size() ? 1 : 2)) <= 0) break;
            auto game = build_proof_game(*tails[i].first, leg, marks.frozen);
            if (!game) continue;
            game->insert(game->end(), tails[i].second.begin(), tails[i].second.end());
            if (accept(*game)) return true;
        }
        return false;
    };
    const auto unresolved = [&] {
        std::ostringstream why;
        why << "no illegality proved (static analysis, retractions " << depth << " deep) and no game found";
        if (limits.seconds > 0) why << " in " << limits.seconds << " s";
        proof.reason = why.str();
        return proof;
    };
    if (limits.seconds > 0) {
        // Within a time limit the promotion lines come first, with a quarter of it (their games
        // come within a second when they come at all; the diagram's may need all its time), an
        // eighth when there are positions before the promotions (a game through one needs two
        // searches of a second or two). With such positions the diagram gets a quarter next
        // (most games come within it; not when it has few last moves, which share the rounds
        // below with it), then the positions half, then the diagram what they leave (all the
        // rest when they end early: every line or position failing at once).
        const auto begin = std::chrono::steady_clock::now();
        const double lines = promotions.empty() ? 0 : limits.seconds / (stagings.empty() ? 4 : 8);
        if (promoted(lines)) return proof;
        if (!stagings.empty() && ((!few && attempt(limits.seconds / 4, 0)) || staged(limits.seconds / 2))) return proof;
        const double rest =
            limits.seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        if (!few) return attempt(rest, 0) ? proof : unresolved();
        // In rounds of 1/16, 1/8 and 1/4 of the rest, each half for the diagram and half for
        // the sequences: a diagram that only its last moves explain (an en passant double check)
        // does not wait for the diagram's half of the time first. Then the sequences a quarter
        // and the diagram all that is left (the sequences' searches often end early).
        for (double round = rest / 16; round <= rest / 4 * 1.0001; round *= 2)
            if (attempt(round / 2, round / 2)) return proof;
        if (through_few(rest / 4)) return proof;
        const double left =
            limits.seconds - std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        return left > 0 && direct(left) ? proof : unresolved();
    }
    return attempt(0, 0) || promoted(0) || staged(0) ? proof : unresolved();
}

}  // namespace rebirth
