// The empty-board distance tables (distance.h) and the help-play goal bound (goal_bound.h).
//
// Distances are checked against values worked out by hand from the rules of chess; the bound
// must never reject a position from which the goal is reached: it is replayed along every
// solution line that Popeye 4.104 printed for the orthodox help problems of data/popeye,
// data/popeye-slow and ../shared/reference/problems, and checked against an exhaustive search on random positions.

#include <gtest/gtest.h>

#include "test_util.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/distance.h"
#include "rebirth/goal.h"
#include "rebirth/goal_bound.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/popeye_input.h"
#include "rebirth/setup.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;
using test::diagram;

Square sq(const char* name) { return parse_square(name); }

TEST(Distance, PieceWalksOnAnEmptyBoard) {
    // A knight needs 6 moves from corner to corner and 4 from a1 to b2; 2 from a1 to c1.
    EXPECT_EQ(empty_distance(KNIGHT, WHITE, sq("a1"), sq("h8")), 6);
    EXPECT_EQ(empty_distance(KNIGHT, WHITE, sq("a1"), sq("b2")), 4);
    EXPECT_EQ(empty_distance(KNIGHT, BLACK, sq("a1"), sq("c1")), 2);
    // A bishop never changes square colour; otherwise 1 or 2 moves.
    EXPECT_EQ(empty_distance(BISHOP, WHITE, sq("c1"), sq("c2")), kFar);
    EXPECT_EQ(empty_distance(BISHOP, WHITE, sq("c1"), sq("h6")), 1);
    EXPECT_EQ(empty_distance(BISHOP, WHITE, sq("c1"), sq("c3")), 2);
    EXPECT_EQ(empty_distance(ROOK, WHITE, sq("a1"), sq("h8")), 2);
    EXPECT_EQ(empty_distance(QUEEN, WHITE, sq("a1"), sq("b3")), 2);
    // A king walks the larger of the file and rank distances; castling from e1 or e8 takes
    // it two files in one move.
    EXPECT_EQ(empty_distance(KING, WHITE, sq("a1"), sq("h8")), 7);
    EXPECT_EQ(empty_distance(KING, WHITE, sq("e1"), sq("g1")), 1);
    EXPECT_EQ(empty_distance(KING, BLACK, sq("e8"), sq("b8")), 2);
    EXPECT_EQ(empty_distance(KING, WHITE, sq("d1"), sq("f1")), 2);
}

TEST(Distance, PawnsStepCaptureAndPromote) {
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e2"), sq("e4")), 1);  // double step
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e3"), sq("e5")), 2);  // no double step off the 2nd rank
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e2"), sq("g4")), 2);  // two captures
    // Backwards only as a promoted unit: e5, e6, e7, e8=Q, Qe8-e3.
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e4"), sq("e3")), 5);
    EXPECT_EQ(empty_distance(PAWN, BLACK, sq("e7"), sq("e5")), 1);
    // e2-e4, e4xf5, f5xg6, g6xh7, h7-h8=Q: five moves to h8.
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e2"), sq("h8")), 5);
    // e7-e8=Q then Qe8-a4: two moves; a pawn on a7 reaches b8 by capture promoting in one.
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("e7"), sq("a4")), 2);
    EXPECT_EQ(empty_distance(PAWN, WHITE, sq("a7"), sq("b8")), 1);
    // As a pawn it never stands on its last rank; as a knight e7xd8=S takes one move and
    // e7-e8=S, Se8-f6 two.
    const std::uint8_t* as_pawn = empty_distances_as(PAWN, WHITE, sq("e7"), PAWN);
    ASSERT_NE(as_pawn, nullptr);
    EXPECT_EQ(as_pawn[sq("e8")], kFar);
    const std::uint8_t* as_knight = empty_distances_as(PAWN, WHITE, sq("e7"), KNIGHT);
    ASSERT_NE(as_knight, nullptr);
    EXPECT_EQ(as_knight[sq("d8")], 1);  // e7xd8=S
    EXPECT_EQ(as_knight[sq("f6")], 2);  // e7-e8=S, Se8-f6
    EXPECT_EQ(empty_distances_as(ROOK, WHITE, sq("a1"), QUEEN), nullptr);
    // As a bishop it keeps its promotion square's colour: a7-a8=B, Ba8-h1 two moves, but a1
    // (dark) only by a7xb8=B, Bb8-e5, Be5-a1: three, where a queen or a rook needs two.
    const std::uint8_t* as_bishop = empty_distances_as(PAWN, WHITE, sq("a7"), BISHOP);
    const std::uint8_t* as_rook = empty_distances_as(PAWN, WHITE, sq("a7"), ROOK);
    const std::uint8_t* as_queen = empty_distances_as(PAWN, WHITE, sq("a7"), QUEEN);
    ASSERT_NE(as_bishop, nullptr);
    ASSERT_NE(as_rook, nullptr);
    ASSERT_NE(as_queen, nullptr);
    EXPECT_EQ(as_bishop[sq("h1")], 2);
    EXPECT_EQ(as_bishop[sq("a1")], 3);
    EXPECT_EQ(as_queen[sq("a1")], 2);
    EXPECT_EQ(as_rook[sq("a1")], 2);
    EXPECT_EQ(as_rook[sq("h1")], 3);  // a8=R, Ra8-h8, Rh8-h1 (or a8-a1-h1)
    // A black pawn: h2-h1=B (light), Bh1-a8; g1 only by capture h2xg1=B.
    const std::uint8_t* black_bishop = empty_distances_as(PAWN, BLACK, sq("h2"), BISHOP);
    ASSERT_NE(black_bishop, nullptr);
    EXPECT_EQ(black_bishop[sq("a8")], 2);
    EXPECT_EQ(black_bishop[sq("g1")], 1);
    EXPECT_EQ(black_bishop[sq("h1")], 1);
    EXPECT_EQ(black_bishop[sq("b8")], 3);  // h2xg1=B, Bg1-a7, Ba7-b8
}

// still_distances: the series side's distances while the other side stands still (ser-h#).
TEST(Distance, StillDistancesByHand) {
    auto bb = [](std::initializer_list<const char*> squares) {
        Bitboard b = 0;
        for (const char* s : squares) b |= square_bb(sq(s));
        return b;
    };
    const unsigned pawn = 1u << PAWN, queen = 1u << QUEEN, any = ~(1u << KING);
    // A black pawn on b5 with a white pawn standing on b3 that is never taken: b4 only; no
    // capture (nothing takeable), no promotion.
    StillDistances d = still_distances(bb({"b3", "d3"}), 0, BLACK, PAWN, sq("b4"), pawn);
    EXPECT_EQ(d.from(PAWN, sq("b5")), 1);
    EXPECT_EQ(still_distances(bb({"b3", "d3"}), 0, BLACK, PAWN, sq("a4"), any).from(PAWN, sq("b5")), kFar);
    EXPECT_EQ(still_distances(bb({"b3", "d3"}), 0, BLACK, PAWN, sq("b1"), queen).from(PAWN, sq("b5")), kFar);
    // The same white pawn takeable: it may be taken first (b5-b4-b3-b2-b1=Q, 4 moves), and
    // b5xa4 needs a takeable unit on a4.
    EXPECT_EQ(still_distances(bb({"d3"}), bb({"b3"}), BLACK, PAWN, sq("b1"), queen).from(PAWN, sq("b5")), 4);
    EXPECT_EQ(still_distances(bb({"d3"}), bb({"b3", "a4"}), BLACK, PAWN, sq("a4"), pawn).from(PAWN, sq("b5")), 1);
    // A kept square is never a target.
    EXPECT_EQ(still_distances(bb({"b3"}), 0, BLACK, PAWN, sq("b3"), any).from(PAWN, sq("b5")), kFar);
    // Double step: e2-e4 in one, none across a kept e3.
    EXPECT_EQ(still_distances(0, 0, WHITE, PAWN, sq("e4"), pawn).from(PAWN, sq("e2")), 1);
    EXPECT_EQ(still_distances(bb({"e3"}), 0, WHITE, PAWN, sq("e4"), pawn).from(PAWN, sq("e2")), kFar);
    // Line pieces go round kept units: Ra1-a8 past a4 takes Ra1-b1-b8-a8; Bc1-a3 past b2
    // takes three (c1-d2-b4-a3), b2 being the only square between on two diagonals.
    EXPECT_EQ(still_distances(bb({"a4"}), 0, WHITE, ROOK, sq("a8"), 1u << ROOK).from(ROOK, sq("a1")), 3);
    EXPECT_EQ(still_distances(bb({"b2"}), 0, WHITE, BISHOP, sq("a3"), 1u << BISHOP).from(BISHOP, sq("c1")), 3);
    // A takeable unit is no obstacle (it may be taken first).
    EXPECT_EQ(still_distances(0, bb({"a4"}), WHITE, ROOK, sq("a8"), 1u << ROOK).from(ROOK, sq("a1")), 1);
    // Castling counts as the king's step e8-c8 unless d8 is kept.
    EXPECT_EQ(still_distances(0, 0, BLACK, KING, sq("c8"), 1u << KING).from(KING, sq("e8")), 1);
    EXPECT_EQ(still_distances(bb({"d8"}), 0, BLACK, KING, sq("c8"), 1u << KING).from(KING, sq("e8")), 2);
    // A piece never changes its walk; a promoted pawn keeps moving: e7-e8=Q, Qe8-a4.
    EXPECT_EQ(still_distances(0, 0, WHITE, ROOK, sq("a8"), queen).from(ROOK, sq("a1")), kFar);
    EXPECT_EQ(still_distances(0, 0, WHITE, PAWN, sq("a4"), queen).from(PAWN, sq("e7")), 2);
    EXPECT_EQ(still_distances(0, 0, WHITE, PAWN, sq("a4"), queen).from(QUEEN, sq("e4")), 1);
}

// With nothing kept and every square takeable, still_distances are the empty-board
// distances (distance.h's tables, worked out independently): pieces exactly, pawns exactly
// from their second to seventh ranks as a pawn, a queen or a knight; a king never less than
// the empty-board distance (castling counts from its own side's e-square only) and never more
// than its steps.
TEST(Distance, StillDistancesWithoutObstaclesAreTheEmptyBoardDistances) {
    const Bitboard all = ~Bitboard(0);
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < 64; ++t) {
            const Square target = Square(t);
            for (Walk w : {QUEEN, ROOK, BISHOP, KNIGHT}) {
                const StillDistances d = still_distances(0, all, c, w, target, 1u << w);
                for (int s = 0; s < 64; ++s)
                    ASSERT_EQ(d.from(w, Square(s)), empty_distance(w, c, Square(s), target))
                        << int(w) << " " << s << " " << t;
            }
            const StillDistances king = still_distances(0, all, c, KING, target, 1u << KING);
            for (int s = 0; s < 64; ++s) {
                const int steps = std::max(std::abs(s % 8 - t % 8), std::abs(s / 8 - t / 8));
                EXPECT_GE(king.from(KING, Square(s)), empty_distance(KING, c, Square(s), target));
                EXPECT_LE(king.from(KING, Square(s)), steps);
            }
            for (Walk as : {PAWN, QUEEN, KNIGHT}) {
                const StillDistances d = still_distances(0, all, c, PAWN, target, 1u << as);
                for (int s = 8; s < 56; ++s)
                    ASSERT_EQ(d.from(PAWN, Square(s)), empty_distances_as(PAWN, c, Square(s), as)[t])
                        << int(c) << " " << int(as) << " " << s << " " << t;
            }
        }
}

TEST(Distance, AttackDistances) {
    EXPECT_EQ(empty_attack_distance(ROOK, WHITE, sq("a1"), sq("a8")), 0);
    EXPECT_EQ(empty_attack_distance(ROOK, WHITE, sq("a1"), sq("h8")), 1);  // Ra8 or Rh1
    EXPECT_EQ(empty_attack_distance(KNIGHT, WHITE, sq("g1"), sq("f3")), 0);
    // A knight attacks a2 from b4, c3 or c1; from a1 (moves to b3, c2) Sa1-b3-c1 takes two.
    EXPECT_EQ(empty_attack_distance(KNIGHT, WHITE, sq("a1"), sq("a2")), 2);
    EXPECT_EQ(empty_attack_distance(BISHOP, WHITE, sq("c1"), sq("c2")), kFar);
    EXPECT_EQ(empty_attack_distance(PAWN, WHITE, sq("e2"), sq("d3")), 0);
    // e3 is attacked by a pawn from d2 or f2, behind e2: only a promoted unit gets there,
    // e2-e4-e5-e6-e7-e8=Q in five moves, the queen on e8 then attacking e3.
    EXPECT_EQ(empty_attack_distance(PAWN, WHITE, sq("e2"), sq("e3")), 5);
    // A pawn on the 7th rank attacks a8 at once only from b7; from h7 it promotes to a queen
    // on h8 (1 move), which attacks a8 along the rank.
    EXPECT_EQ(empty_attack_distance(PAWN, WHITE, sq("h7"), sq("a8")), 1);
    EXPECT_EQ(empty_attack_distance(PAWN, BLACK, sq("e7"), sq("d6")), 0);
    EXPECT_EQ(empty_attack_distance(KING, WHITE, sq("a1"), sq("c3")), 1);
}

// Whether the side to move can reach goal g with `plies` half-moves from pos, the last by
// `attacker` (a move of the attacker reaching the goal earlier also counts).
bool reach(Position& pos, int plies, Color attacker, Goal g) {
    MoveList list;
    generate_legal(pos, list);
    const Color mover = pos.side_to_move();
    for (const Move& m : list) {
        UndoInfo u;
        pos.do_move(m, u);
        bool ok = mover == attacker && goal_reached(pos, u, g);
        if (!ok && plies > 1) ok = reach(pos, plies - 1, attacker, g);
        pos.undo_move(m, u);
        if (ok) return true;
    }
    return false;
}

// The moves each side makes in the last `plies` half-moves of a play whose last move is the
// attacker's, the side to move being `mover`.
void budgets(int plies, bool attacker_moves_now, int& attacker, int& defender) {
    attacker = attacker_moves_now ? (plies + 1) / 2 : plies / 2;
    defender = attacker_moves_now ? plies / 2 : (plies + 1) / 2;
}

// The bound against an exhaustive search for goal g (Black the defender) within `plies`
// half-moves from pos, White moving last: it must hold wherever the search reaches g.
void expect_bound_holds(Position& pos, int plies, Goal g, int& reached, int& rejected) {
    int attacker = 0, defender = 0;
    budgets(plies, pos.side_to_move() == WHITE, attacker, defender);
    const bool bound = goal_may_be_reached(pos, g, BLACK, attacker, defender);
    const bool found = reach(pos, plies, WHITE, g);
    if (found) ++reached;
    if (!bound) ++rejected;
    EXPECT_TRUE(bound || !found) << "goal " << int(g) << " within " << plies << " plies of " << to_fen(pos.to_setup());
}

// The legal move of pos from `from` to `to` (the first, promotions aside).
Move legal_move(const Position& pos, const char* from, const char* to) {
    MoveList list;
    generate_legal(pos, list);
    for (const Move& m : list)
        if (m.from == sq(from) && m.to == sq(to)) return m;
    ADD_FAILURE() << from << "-" << to << " is not legal in " << to_fen(pos.to_setup());
    return Move{};
}

// goal_forced_in_one as defined: the side to move has a move, and every move reaches g.
bool forced_by_playing(Position& pos, Goal g) {
    MoveList list;
    generate_legal(pos, list);
    if (list.empty()) return false;
    for (const Move& m : list) {
        UndoInfo u;
        pos.do_move(m, u);
        const bool reached = goal_reached(pos, u, g);
        pos.undo_move(m, u);
        if (!reached) return false;
    }
    return true;
}

// goal_forced_in_one (which refutes a forced mate by a king step or a move giving no check
// before playing any move) against playing every move, on every position two half-moves off
// the main line of Hundsdorfer's s#6 (BEISPIEL_ep_011, Popeye 4.104's solution), and at its
// end, where Black's only move Sa4*c5 mates.
TEST(Goal, ForcedInOneAgreesWithPlayingEveryMove) {
    Position pos;
    pos.set(parse_fen("KR2N3/4P1P1/6QB/3N1pPB/n6P/rP6/ppkPP2P/3R4 w - f6 0 1"));
    const std::vector<std::pair<const char*, const char*>> line = {
        {"g5", "f6"}, {"c2", "d1"}, {"g6", "g1"}, {"d1", "c2"}, {"d5", "e3"}, {"c2", "d2"},
        {"e3", "g2"}, {"d2", "c2"}, {"h5", "g6"}, {"c2", "c3"}, {"g1", "c5"}};
    int compared = 0, forced = 0;
    std::vector<UndoInfo> undo(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        // Every position one and two half-moves off the line.
        MoveList first;
        generate_legal(pos, first);
        for (const Move& a : first) {
            UndoInfo ua;
            pos.do_move(a, ua);
            MoveList second;
            generate_legal(pos, second);
            for (const Move& b : second) {
                UndoInfo ub;
                pos.do_move(b, ub);
                for (Goal g : {Goal::Mate, Goal::Check}) {
                    const bool want = forced_by_playing(pos, g);
                    EXPECT_EQ(goal_forced_in_one(pos, g), want) << to_fen(pos.to_setup());
                    ++compared;
                    forced += want;
                }
                pos.undo_move(b, ub);
            }
            pos.undo_move(a, ua);
        }
        const Move m = legal_move(pos, line[i].first, line[i].second);
        pos.do_move(m, undo[i]);
    }
    // 6.Qg1-c5+: Black's only move Sa4*c5 mates.
    EXPECT_TRUE(forced_by_playing(pos, Goal::Mate));
    EXPECT_TRUE(goal_forced_in_one(pos, Goal::Mate));
    std::printf("goal_forced_in_one: %d positions compared, %d forced\n", compared, forced);
    EXPECT_GE(forced, 1);
}

TEST(GoalBound, RejectsWhatCannotBeReached) {
    // A king alone never gives check.
    Position bare(diagram({"wKa1", "bKh8"}, BLACK));
    EXPECT_FALSE(goal_may_be_reached(bare, Goal::Mate, BLACK, 10, 10));
    // Kh8 with its flights g8 g7 h7: Ra1 mates on the 8th rank only with Kg6 (or a second
    // unit) covering g7 h7; the white king on a1 is 5 moves from g6.
    Position rook(diagram({"wKa1", "wRb2", "bKh8"}, BLACK));
    EXPECT_FALSE(goal_may_be_reached(rook, Goal::Mate, BLACK, 2, 2));
    EXPECT_TRUE(goal_may_be_reached(rook, Goal::Mate, BLACK, 6, 6));
    // Kf6 next to Kh8 and Rb2: Rb8 mates at once (h7 g7 guarded by the king).
    Position near(diagram({"wKf7", "wRb2", "bKh8"}, BLACK));
    EXPECT_TRUE(goal_may_be_reached(near, Goal::Mate, BLACK, 1, 0));
    // Mates by castling, with one move left: O-O (Kg1, Rf1 checking up the f-file, Kf8's
    // flights held by its own units) and O-O-O (Kc1, Rd1), which move two units at once (the
    // bound models them exactly with one move left, as one move more for any unit beyond).
    rebirth::Setup short_side = diagram({"wKe1", "wRh1", "bKf8", "bRe8", "bRg8", "bPe7", "bPg7"}, WHITE);
    short_side.castling = square_bb(SQ_E1) | square_bb(SQ_H1);
    EXPECT_TRUE(goal_may_be_reached(Position(short_side), Goal::Mate, BLACK, 1, 0));
    rebirth::Setup long_side = diagram({"wKe1", "wRa1", "bKd8", "bRc8", "bRe8", "bPc7", "bPe7"}, WHITE);
    long_side.castling = square_bb(SQ_E1) | square_bb(SQ_A1);
    EXPECT_TRUE(goal_may_be_reached(Position(long_side), Goal::Mate, BLACK, 1, 0));
    // Stalemate: black pawns a6 c6 e6 with free squares ahead need three moves.
    Position pawns(diagram({"wKh1", "bKh8", "wBe4", "bPa6", "bPc6", "bPe6", "wPh7", "wPg6"}, BLACK));
    EXPECT_FALSE(goal_may_be_reached(pawns, Goal::Stalemate, BLACK, 1, 1));
    // Conditions and fairy walks: no verdict.
    Position fairy(diagram({"wKa1", "wGb2", "bKh8"}, BLACK));
    EXPECT_FALSE(goal_bound_applies(fairy, Goal::Mate, BLACK));
    EXPECT_TRUE(goal_may_be_reached(fairy, Goal::Mate, BLACK, 1, 1));
    EXPECT_FALSE(goal_bound_applies(rook, Goal::Capture, BLACK));
}

// Puts a unit of colour c and Popeye code `code` on a random empty square of rank
// `lowest_rank` or above (a pawn never on the first or last rank); 20 tries at most.
void place_at_random(rebirth::Setup& s, std::mt19937& rng, Color c, char code, int lowest_rank = 0) {
    std::uniform_int_distribution<int> square(0, 63);
    for (int tries = 0; tries < 20; ++tries) {
        const Square x = Square(square(rng));
        if (!s.board[x].empty() || rank_of(x) < lowest_rank) continue;
        if (code == 'P' && (rank_of(x) == 0 || rank_of(x) == 7)) continue;
        s.board[x] = make_piece(c, walk_from_code(std::string(1, code), Language::English));
        return;
    }
}

// The bound against the exhaustive search for mate and stalemate within `plies` half-moves
// of the diagram s, White (the attacker) moving last; a diagram that is no legal position is
// passed over (`checked` counts the others).
void check_random_setup(rebirth::Setup& s, int plies, int& checked, int& reached, int& rejected) {
    s.side_to_move = plies % 2 ? WHITE : BLACK;
    Position pos;
    try {
        pos.set(s);
    } catch (const std::exception&) {
        return;
    }
    ++checked;
    for (Goal g : {Goal::Mate, Goal::Stalemate}) expect_bound_holds(pos, plies, g, reached, rejected);
}

// Random orthodox positions with a few units: wherever an exhaustive search reaches mate or
// stalemate within 2 or 3 half-moves, the bound agrees.
TEST(GoalBound, NeverRejectsAReachableGoal) {
    std::mt19937 rng(20261125);
    const char walks[] = {'Q', 'R', 'B', 'S', 'P', 'P'};
    int reached = 0, checked = 0, rejected = 0;
    for (int trial = 0; trial < 3000 && checked < 600; ++trial) {
        rebirth::Setup s;
        std::uniform_int_distribution<int> count(1, 3), walk(0, 5);
        place_at_random(s, rng, WHITE, 'K');
        place_at_random(s, rng, BLACK, 'K');
        for (int i = count(rng); i > 0; --i) place_at_random(s, rng, WHITE, walks[walk(rng)]);
        for (int i = count(rng) - 1; i > 0; --i) place_at_random(s, rng, BLACK, walks[walk(rng)]);
        check_random_setup(s, 2 + trial % 2, checked, reached, rejected);
    }
    EXPECT_GE(checked, 500);
    EXPECT_GE(reached, 20);    // the search does find goals: the check can fail
    EXPECT_GE(rejected, 100);  // and the bound does reject positions
}

// As NeverRejectsAReachableGoal with White's king on e1 and its rooks on a1 and h1 keeping
// their castling rights: castling moves two units with one move (the bound models it exactly
// with one move left).
TEST(GoalBound, NeverRejectsAGoalReachedByCastling) {
    std::mt19937 rng(20261126);
    const char walks[] = {'Q', 'R', 'B', 'S', 'P', 'P'};
    int reached = 0, checked = 0, rejected = 0;
    for (int trial = 0; trial < 6000 && checked < 800; ++trial) {
        rebirth::Setup s;
        std::uniform_int_distribution<int> count(1, 3), walk(0, 5), coin(0, 1);
        s.board[SQ_E1] = make_piece(WHITE, KING);
        s.castling = square_bb(SQ_E1);
        for (Square r : {SQ_A1, SQ_H1})
            if (coin(rng)) {
                s.board[r] = make_piece(WHITE, ROOK);
                s.castling |= square_bb(r);
            }
        place_at_random(s, rng, BLACK, 'K', 3);
        for (int i = count(rng) - 1; i > 0; --i) place_at_random(s, rng, WHITE, walks[walk(rng)], 1);
        for (int i = count(rng); i > 0; --i) place_at_random(s, rng, BLACK, walks[walk(rng)], 2);
        check_random_setup(s, 1 + trial % 3, checked, reached, rejected);
    }
    EXPECT_GE(checked, 500);
    EXPECT_GE(reached, 20);
    EXPECT_GE(rejected, 100);
}

// Stalemate needs every defending piece immobile (goal_bound.h): free pieces that neither
// the defender's arrivals nor a pin can stop must be taken or moved, one move each.
TEST(GoalBound, StalemateNeedsImmobilePieces) {
    // Black: Kh8 boxed in by its pawns g7 h7 and Bg8; Ra1 and Nb1 are free, and with White
    // alone to move once (Qd4) one capture cannot stop both.
    Position two(diagram({"wKe1", "wQd4", "bKh8", "bPg7", "bPh7", "bBg8", "bRa4", "bSb1"}, WHITE));
    EXPECT_FALSE(goal_may_be_reached(two, Goal::Stalemate, BLACK, 1, 0));
    // With one Black move as well, the knight may go and the queen take the rook: no verdict.
    EXPECT_TRUE(goal_may_be_reached(two, Goal::Stalemate, BLACK, 1, 1));
    // A rook on b2 pinned by Ba1 along the diagonal from Kh8 is immobile; Qd1xa4 leaves no
    // free unit.
    Position pinned(diagram({"wKe1", "wQd1", "wBa1", "bKh8", "bPh7", "bBg8", "bRa4", "bRb2"}, WHITE));
    EXPECT_TRUE(goal_may_be_reached(pinned, Goal::Stalemate, BLACK, 1, 0));
    // A queen is never stopped by a pin: Qb2 instead of the rook.
    Position queen(diagram({"wKe1", "wQd1", "wBa1", "bKh8", "bPh7", "bBg8", "bRa4", "bQb2"}, WHITE));
    EXPECT_FALSE(goal_may_be_reached(queen, Goal::Stalemate, BLACK, 1, 0));
}

// Random positions with the defending king in a corner among its own units, where
// stalemates are frequent: wherever an exhaustive search reaches stalemate within 1 to 3
// half-moves, the bound agrees.
TEST(GoalBound, NeverRejectsAReachableStalemate) {
    std::mt19937 rng(20261126);
    const char black_walks[] = {'Q', 'R', 'B', 'S', 'P', 'R', 'B', 'S'};
    const char white_walks[] = {'Q', 'R', 'B', 'S', 'P'};
    int reached = 0, checked = 0, rejected = 0;
    for (int trial = 0; trial < 20000 && checked < 6000; ++trial) {
        rebirth::Setup s;
        std::uniform_int_distribution<int> square(0, 63), near(0, 2), count(1, 6), bw(0, 7), ww(0, 4);
        auto place = [&](Color c, char code, Square x) {
            if (!s.board[x].empty()) return;
            if (code == 'P' && (rank_of(x) == 0 || rank_of(x) == 7)) return;
            s.board[x] = make_piece(c, walk_from_code(std::string(1, code), Language::English));
        };
        place(BLACK, 'K', sq("h8"));
        for (int i = count(rng); i > 0; --i)
            place(BLACK, black_walks[bw(rng)], Square(8 * (7 - near(rng)) + 7 - near(rng)));
        for (int i = count(rng) / 2; i > 0; --i) place(BLACK, black_walks[bw(rng)], Square(square(rng)));
        place(WHITE, 'K', Square(square(rng)));
        for (int i = count(rng) / 2 + 1; i > 0; --i) place(WHITE, white_walks[ww(rng)], Square(square(rng)));
        const int plies = 1 + trial % 3;
        s.side_to_move = plies % 2 ? WHITE : BLACK;
        Position pos;
        try {
            pos.set(s);
        } catch (const std::exception&) {
            continue;
        }
        ++checked;
        expect_bound_holds(pos, plies, Goal::Stalemate, reached, rejected);
    }
    std::printf("%d positions, %d stalemates reached, %d rejected\n", checked, reached, rejected);
    EXPECT_GE(checked, 5000);
    EXPECT_GE(reached, 100);
    EXPECT_GE(rejected, 1500);
}

// Popeye's solution moves of a line ("  1.Dd6-d5 + Kf3-e2   2.Kf5-f4 ... f2-f3 #"): the
// words that are not move numbers, check marks or goal marks.
std::vector<std::string> line_words(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    std::string w;
    while (in >> w) {
        size_t i = 0;
        while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
        if (i > 0 && i < w.size() && w[i] == '.') {
            while (i < w.size() && w[i] == '.') ++i;
            w = w.substr(i);
        }
        if (w.empty() || w == "+" || w == "#" || w == "=" || w == "==") continue;
        words.push_back(w);
    }
    return words;
}

// Replays each solution line of an orthodox help problem (h#n, h=n; no twins, duplex or set
// play) from Popeye's output, asking the bound before every move with the moves left.
TEST(GoalBound, HoldsAlongPopeyeSolutions) {
    struct Source {
        fs::path dir;
        std::string file;
    };
    std::vector<Source> sources;
    const fs::path data = fs::path(REBIRTH_SOURCE_DIR) / "data" / "popeye";
    const fs::path reference = fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems";
    const fs::path slow = fs::path(REBIRTH_SOURCE_DIR) / "data" / "popeye-slow";
    for (const fs::path& dir : {data, slow, reference}) {
        std::istringstream index(test::read_text(dir / "index.jsonl"));
        std::string row;
        while (std::getline(index, row)) {
            const auto j = nlohmann::json::parse(row);
            const std::string name = j.contains("name") ? j["name"].get<std::string>() : j["file"].get<std::string>();
            sources.push_back({dir, fs::path(name).stem().string()});
        }
    }
    int lines = 0, moves = 0;
    for (const Source& src : sources) {
        std::vector<Problem> problems;
        try {
            problems = parse_popeye_file((src.dir / (src.file + ".inp")).string());
        } catch (const std::exception&) {
            continue;
        }
        if (problems.size() != 1) continue;
        const Problem& p = problems[0];
        auto help_goal = [](const Problem& tw) {
            const Goal g = goal_from_text(tw.stipulation.goal);
            const bool plain = tw.stipulation.play == Stipulation::Play::Help && !tw.stipulation.series &&
                               !tw.stipulation.intro && !tw.options.duplex && !tw.options.half_duplex &&
                               !tw.options.set_play;
            return plain && (g == Goal::Mate || g == Goal::Stalemate) ? g : Goal::Unsupported;
        };
        // The diagram and every twin: a line is checked in the first of them where it
        // replays and its last move reaches the goal.
        std::vector<std::pair<Position, Goal>> starts;
        const size_t twins = p.twins.empty() ? 1 : p.twins.size() + 1;
        for (size_t t = 0; t < twins; ++t) {
            const Problem tw = p.twins.empty() ? p : apply_twin(p, t);
            SetupRules rules;
            rules.require_white_king = !tw.options.no_white_king;
            rules.require_black_king = !tw.options.no_black_king;
            Position start;
            try {
                start.set(tw.setup, rules);
            } catch (const std::exception&) {
                continue;
            }
            if (tw.conditions.empty() && !start.has_fairy() && help_goal(tw) != Goal::Unsupported)
                starts.push_back({start, help_goal(tw)});
        }
        if (starts.empty() || starts.size() != twins) continue;
        int borders = 0;  // solution lines come after the diagram's two borders
        for (const std::string& line : test::split_lines(test::read_text(src.dir / (src.file + ".out")))) {
            if (line.rfind("+---a---b", 0) == 0) ++borders;
            if (borders < 2) continue;
            const size_t first = line.find_first_not_of(' ');
            if (first == std::string::npos || !std::isdigit(static_cast<unsigned char>(line[first]))) continue;
            size_t digits = first;
            while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
            if (digits + 1 >= line.size() || line[digits] != '.' || line[digits + 1] == ' ') continue;
            const std::vector<std::string> words = line_words(line);
            bool replayed = false;
            for (const auto& [start, g] : starts) {
                // The moves of the line, matched against the legal moves ("ep." follows en
                // passant captures).
                Position pos = start;
                std::vector<Position> before;
                bool ok = true, goal = false;
                for (size_t i = 0; i < words.size() && ok; ++i) {
                    if (words[i] == "ep.") continue;
                    auto find = [&](Position& at) {
                        MoveList list;
                        generate_legal(at, list);
                        for (const Move& m : list) {
                            const std::string text = move_to_popeye(at, m, false, p.language);
                            if (text == words[i] || text == words[i] + " ep.") return std::optional<Move>(m);
                        }
                        return std::optional<Move>();
                    };
                    std::optional<Move> m = find(pos);
                    if (!m && before.empty()) {
                        pos.set_side_to_move_for_analysis(~pos.side_to_move());
                        m = find(pos);
                    }
                    if (!m) {
                        ok = false;
                        break;
                    }
                    before.push_back(pos);
                    UndoInfo u;
                    pos.do_move(*m, u);
                    goal = goal_reached(pos, u, g);
                }
                if (!ok || !goal) continue;
                replayed = true;
                const Color attacker = before.back().side_to_move();
                const int total = static_cast<int>(before.size());
                for (int i = 0; i < total; ++i) {
                    int a = 0, d = 0;
                    budgets(total - i, before[i].side_to_move() == attacker, a, d);
                    EXPECT_TRUE(goal_may_be_reached(before[i], g, ~attacker, a, d))
                        << src.file << ": " << line << " before half-move " << i + 1;
                    ++moves;
                }
                ++lines;
                break;
            }
            EXPECT_TRUE(replayed) << src.file << ": cannot replay " << line;
        }
    }
    // The orthodox helpmates and help stalemates of the three folders.
    EXPECT_GE(lines, 100);
    EXPECT_GE(moves, 600);
    std::printf("%d solution lines, %d positions checked\n", lines, moves);
}

}  // namespace
}  // namespace rebirth
