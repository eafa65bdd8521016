// Engine tests: perft against published counts, do/undo consistency, parallel perft,
// fairy walks of RULES.md section 1, and position checks of RULES.md section 2.
#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "rebirth/error.h"
#include "rebirth/movegen.h"
#include "rebirth/notation.h"
#include "rebirth/perft.h"
#include "rebirth/popeye_input.h"
#include "rebirth/position.h"
#include "rebirth/rules.h"
#include "rebirth/setup.h"

using namespace rebirth;

namespace {

using rebirth::test::diagram;
using rebirth::test::legal_moves;
using rebirth::test::sorted;

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char* kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const char* kPos3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const char* kPos4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const char* kPos4Mirrored = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
const char* kPos5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
const char* kPos6 = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";

Position from_fen(const char* fen) { return Position(parse_fen(fen)); }

}  // namespace

// Published perft counts (chessprogramming.org "Perft Results"); depth 6 of the initial
// position and depth 5 of the larger ones run in the benchmark.
TEST(Perft, InitialPosition) {
    Position pos = from_fen(kStart);
    const std::uint64_t expected[] = {1, 20, 400, 8902, 197281, 4865609};
    for (int d = 0; d <= 5; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

TEST(Perft, Kiwipete) {
    Position pos = from_fen(kKiwipete);
    const std::uint64_t expected[] = {1, 48, 2039, 97862, 4085603};
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

TEST(Perft, Position3) {
    Position pos = from_fen(kPos3);
    const std::uint64_t expected[] = {1, 14, 191, 2812, 43238, 674624};
    for (int d = 1; d <= 5; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

TEST(Perft, Position4BothColours) {
    const std::uint64_t expected[] = {1, 6, 264, 9467, 422333};
    for (const char* fen : {kPos4, kPos4Mirrored}) {
        Position pos = from_fen(fen);
        for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << fen << " depth " << d;
    }
}

TEST(Perft, Position5) {
    Position pos = from_fen(kPos5);
    const std::uint64_t expected[] = {1, 44, 1486, 62379, 2103487};
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

TEST(Perft, Position6) {
    Position pos = from_fen(kPos6);
    const std::uint64_t expected[] = {1, 46, 2079, 89890, 3894594};
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d]) << "depth " << d;
}

// The consistency check runs after every do and undo of these trees.
TEST(Perft, ConsistentAfterEveryDoUndo) {
    for (const char* fen : {kStart, kKiwipete, kPos3, kPos4, kPos5, kPos6}) {
        Position pos = from_fen(fen);
        Position ref = pos;
        std::uint64_t plain = perft(ref, 3);
        EXPECT_EQ(perft_checked(pos, 3), plain) << fen;
        EXPECT_EQ(pos.key(), ref.key());
        EXPECT_TRUE(pos.is_consistent());
    }
}

TEST(Perft, ParallelEqualsSingleThread) {
    for (const char* fen : {kKiwipete, kPos4, kPos5}) {
        Position pos = from_fen(fen);
        std::uint64_t single = perft(pos, 4);
        EXPECT_EQ(parallel_perft(pos, 4, 1), single) << fen;
        EXPECT_EQ(parallel_perft(pos, 4, 2), single) << fen;
        EXPECT_EQ(parallel_perft(pos, 5, 1), parallel_perft(pos, 5, 2)) << fen;
    }
}

TEST(Perft, DivideSumsToPerft) {
    Position pos = from_fen(kKiwipete);
    auto div1 = perft_divide(pos, 3, 1);
    auto div2 = perft_divide(pos, 3, 2);
    ASSERT_EQ(div1.size(), 48u);
    EXPECT_EQ(div1, div2);
    std::uint64_t sum = 0;
    for (auto& [move, n] : div1) sum += n;
    EXPECT_EQ(sum, 97862u);
}

// Transpositions reach the same key; the key is the recomputed one.
TEST(Position, KeyIsPathIndependent) {
    Position a = from_fen(kStart), b = from_fen(kStart);
    auto play = [](Position& p, Square from, Square to) {
        Move m;
        m.from = from;
        m.to = to;
        UndoInfo u;
        ASSERT_TRUE(is_legal(p, m));
        p.do_move(m, u);
    };
    play(a, SQ_G1, SQ_F3);
    play(a, SQ_G8, SQ_F6);
    play(a, SQ_B1, SQ_C3);
    play(b, SQ_B1, SQ_C3);
    play(b, SQ_G8, SQ_F6);
    play(b, SQ_G1, SQ_F3);
    EXPECT_EQ(a.key(), b.key());
    EXPECT_EQ(a.key(), a.compute_key());
    EXPECT_NE(a.key(), from_fen(kStart).key());
}

// Popeye notation of RULES.md section 1, checks marked " +" as in move lists.
TEST(Notation, PopeyeStrings) {
    Position ep = from_fen("rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1");
    auto moves = legal_moves(ep);
    EXPECT_NE(std::find(moves.begin(), moves.end(), "e5*d6 ep."), moves.end());
    EXPECT_NE(std::find(moves.begin(), moves.end(), "Sb1-c3"), moves.end());
    EXPECT_NE(std::find(moves.begin(), moves.end(), "e5*f6"), moves.end());

    Position castle = from_fen(kKiwipete);
    moves = legal_moves(castle);
    EXPECT_NE(std::find(moves.begin(), moves.end(), "0-0"), moves.end());
    EXPECT_NE(std::find(moves.begin(), moves.end(), "0-0-0"), moves.end());

    Position promo = from_fen("1n2k3/P1P5/8/8/8/8/1p4p1/R3K1N1 w Q - 0 1");
    MoveList list;
    generate_legal(promo, list);
    std::vector<std::string> checked;
    for (const Move& m : list) checked.push_back(move_to_popeye(promo, m, true));
    for (const char* s : {"a7*b8=Q +", "a7*b8=S", "c7-c8=R +", "c7-c8=B"})
        EXPECT_NE(std::find(checked.begin(), checked.end(), s), checked.end()) << s;
}

// RULES.md section 1: the grasshopper hops over one unit of any colour along a queen line to
// the square just beyond. Wd4 hops over bPd6 to d7 and over wPb6 to a7; on the other lines
// there is no hurdle, or (h8) no square beyond.
TEST(FairyWalks, GrasshopperHops) {
    Position pos(diagram({"wKh1", "wGd4", "wPb6", "bKh8", "bPd6"}));
    EXPECT_TRUE(pos.has_fairy());
    EXPECT_EQ(legal_moves(pos), sorted({"Kh1-g1", "Kh1-g2", "Kh1-h2", "b6-b7", "Gd4-d7", "Gd4-a7"}));
}

// A grasshopper captures by landing on an enemy unit and checks through a hurdle.
TEST(FairyWalks, GrasshopperCapturesAndChecks) {
    Position pos(diagram({"wKa1", "wGb2", "bPg7", "bKh8"}, BLACK));
    EXPECT_TRUE(pos.in_check(BLACK));  // b2 -> over g7 -> h8
    Position cap(diagram({"wKa1", "wGb2", "wPe5", "bRf6", "bKh8"}));
    auto moves = legal_moves(cap);
    EXPECT_NE(std::find(moves.begin(), moves.end(), "Gb2*f6"), moves.end());
}

// RULES.md section 1: the nightrider repeats knight steps until blocked.
TEST(FairyWalks, NightriderRides) {
    Position pos(diagram({"wKh1", "wNa1", "bKh8"}));
    auto moves = legal_moves(pos);
    std::vector<std::string> rider;
    for (auto& m : moves)
        if (m[0] == 'N') rider.push_back(m);
    EXPECT_EQ(rider, sorted({"Na1-b3", "Na1-c5", "Na1-d7", "Na1-c2", "Na1-e3", "Na1-g4"}));

    Position blocked(diagram({"wKh1", "wNa1", "bKh8", "bSc5", "wPe3"}));
    moves = legal_moves(blocked);
    rider.clear();
    for (auto& m : moves)
        if (m[0] == 'N') rider.push_back(m);
    EXPECT_EQ(rider, sorted({"Na1-b3", "Na1*c5", "Na1-c2"}));
}

// RULES.md section 2: promotion to every fairy walk present in the diagram.
TEST(FairyWalks, PromotionIncludesDiagramWalks) {
    Position pos(diagram({"wKh1", "wPb7", "wGd4", "bKh8"}));
    auto moves = legal_moves(pos);
    for (const char* s : {"b7-b8=Q", "b7-b8=R", "b7-b8=B", "b7-b8=S", "b7-b8=G"})
        EXPECT_NE(std::find(moves.begin(), moves.end(), s), moves.end()) << s;
    EXPECT_EQ(std::find(moves.begin(), moves.end(), "b7-b8=N"), moves.end());
}

// Fairy positions: do/undo stays consistent and the generic generator matches itself in
// parallel.
TEST(FairyWalks, PerftConsistent) {
    Position pos(
        diagram({"wKe1", "wRa1", "wRh1", "wGd4", "wNb1", "wPc2", "wPf6", "bKe8", "bNd8", "bGh5", "bPd5", "bPg2"}));
    Position ref = pos;
    std::uint64_t n = perft(ref, 3);
    EXPECT_EQ(perft_checked(pos, 3), n);
    EXPECT_EQ(parallel_perft(pos, 4, 2), parallel_perft(pos, 4, 1));
}

// RULES.md section 2: a pawn on its own first rank has no moves and gives no check.
TEST(Position, PawnOnFirstRankIsInert) {
    Position pos(diagram({"wKh1", "wPc1", "bKd2"}, BLACK));
    EXPECT_FALSE(pos.in_check(BLACK));
    Position white(diagram({"wKh1", "wPc1", "bKa8"}));
    for (const auto& m : legal_moves(white)) EXPECT_EQ(m[0], 'K') << m;
}

TEST(PositionErrors, MissingKing) {
    EXPECT_THROW(Position(diagram({"wKe1"})), InputError);
    SetupRules kingless;
    kingless.require_black_king = false;
    EXPECT_NO_THROW(Position(diagram({"wKe1"}), kingless));
    try {
        Position(diagram({"bKe8"}), {}, "problem.inp");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("problem.inp"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("white king"), std::string::npos);
    }
}

TEST(PositionErrors, TwoKingsOfAColour) { EXPECT_THROW(Position(diagram({"wKe1", "wKe3", "bKe8"})), InputError); }

TEST(PositionErrors, SideNotToMoveInCheck) {
    EXPECT_THROW(Position(diagram({"wKe1", "wRe4", "bKe8"})), InputError);
    EXPECT_NO_THROW(Position(diagram({"wKe1", "wRe4", "bKe8"}, BLACK)));
}

TEST(PositionErrors, CastlingAndEnPassantMustFitTheBoard) {
    EXPECT_THROW(from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1"), InputError);
    EXPECT_THROW(from_fen("4k3/8/8/8/8/8/8/4K3 w - e6 0 1"), InputError);
}

// Kingless positions (Option NoWk / NoBk): no check for the side without a king.
TEST(Position, KinglessSideHasNoChecks) {
    SetupRules rules;
    rules.require_white_king = false;
    rules.require_black_king = false;
    Position pos(diagram({"wRa1", "bRa8", "wPb2"}), rules);
    EXPECT_FALSE(pos.in_check(WHITE));
    // Ra1-a2..a7 (6), Ra1*a8, Ra1-b1..h1 (7), b2-b3, b2-b4.
    EXPECT_EQ(count_legal(pos), 6 + 1 + 7 + 2);
}

// Attributes the engine does not implement yet are refused, never silently ignored.
TEST(PositionErrors, UnsupportedAttributesAreRefused) {
    rebirth::Setup s = diagram({"wKe1", "wQd1", "bKe8"});
    s.board[SQ_D1].flags = PF_KAMIKAZE;
    EXPECT_THROW(Position{s}, InputError);
    s.board[SQ_D1].flags = PF_ROYAL;
    EXPECT_THROW(Position{s}, InputError);
    s.board[SQ_D1].flags = PF_PROMOTED;
    EXPECT_NO_THROW(Position{s});
}

// Threads share the immutable rule set: parallel perft under conditions equals single-thread
// perft (RULES.md section 4 rules; positions from the reference move lists).
TEST(Perft, ParallelEqualsSingleThreadUnderConditions) {
    for (const char* words : {"Circe", "AntiCirce", "Circe Assassin", "MarsCirce", "Circe Volcanic", "Circe Parrain"}) {
        const RuleSet rules = resolve_rules(parse_condition_words(words, "test"), "test");
        SetupRules setup_rules;
        setup_rules.rules = &rules;
        Position pos(parse_fen(kKiwipete), setup_rules);
        Position copy = pos;
        const std::uint64_t single = perft(copy, 3);
        EXPECT_EQ(parallel_perft(pos, 3, 2), single) << words;
        EXPECT_EQ(parallel_perft(pos, 4, 1), parallel_perft(pos, 4, 2)) << words;
    }
}

// A move list holds more than MAX_MOVES moves (on the heap past them): under Super Circe
// (RULES.md: the taken unit is reborn on any empty square of the mover's choice, or not at
// all) every capture is one move per empty square after it plus the capture without rebirth.
// White's king on a1 is shut in by its own units on a2, b1 and b2, none of which can take, and
// Black has no knight, so no rebirth checks it: the moves are the orthodox ones plus, per
// orthodox capture, one per square left empty (64 less the units after it). Here 1038 moves
// (one list used to overflow its 1024 places); copies keep them.
TEST(Perft, SuperCirceCapturesFillAMoveListPastItsPlace) {
    const char* fen = "1b1r1b1k/r1Q1Q1r1/1b1r1b2/r1Q1Q1r1/1b1r1b2/2Q1Q1r1/PP6/KN1b4 w - - 0 1";
    Position plain = from_fen(fen);
    MoveList orthodox;
    generate_legal(plain, orthodox);
    int captures = 0;
    for (const Move& m : orthodox) captures += !plain.empty(m.to);
    const int empty_after = 64 - (popcount(plain.pieces()) - 1);
    const int expected = orthodox.size() + captures * empty_after;
    ASSERT_GT(expected, MAX_MOVES);
    const RuleSet rules = resolve_rules(parse_condition_words("Circe Super", "test"), "test");
    SetupRules setup_rules;
    setup_rules.rules = &rules;
    Position super(parse_fen(fen), setup_rules);
    MoveList list;
    generate_legal(super, list);
    EXPECT_EQ(list.size(), expected);
    EXPECT_EQ(list.size(), 1038);
    EXPECT_EQ(perft(super, 1), std::uint64_t(expected));
    MoveList copy;
    copy.push(list[0]);
    copy = list;
    ASSERT_EQ(copy.size(), list.size());
    EXPECT_TRUE(std::equal(copy.begin(), copy.end(), list.begin()));
    const MoveList again(copy);
    EXPECT_TRUE(std::equal(again.begin(), again.end(), list.begin()));
}

namespace {

// Moves at depth `depth` below pos that give check, by gives_check; every legal move on the
// way is also played to see that gives_check agrees with the position after it.
std::uint64_t count_checks(Position& pos, int depth) {
    MoveList list;
    generate_legal(pos, list);
    std::uint64_t checks = 0;
    for (const Move& m : list) {
        const bool predicted = gives_check(pos, m);
        UndoInfo u;
        pos.do_move(m, u);
        EXPECT_EQ(predicted, pos.in_check()) << square_name(m.from) << square_name(m.to);
        if (depth == 1)
            checks += predicted;
        else
            checks += count_checks(pos, depth - 1);
        pos.undo_move(m, u);
    }
    return checks;
}

}  // namespace

// gives_check (help play's last-move filter) against the published check counts of the perft
// tables (chessprogramming.org "Perft Results": initial position depth 4 469 checks, Kiwipete
// depth 3 993, position 3 depth 4 1680), and against the played move at every node.
TEST(Perft, GivesCheckMatchesPublishedCheckCounts) {
    Position start = from_fen(kStart);
    EXPECT_EQ(count_checks(start, 4), 469u);
    Position kiwi = from_fen(kKiwipete);
    EXPECT_EQ(count_checks(kiwi, 3), 993u);
    Position p3 = from_fen(kPos3);
    EXPECT_EQ(count_checks(p3, 4), 1680u);
}

namespace rebirth {
namespace {

// Walks every line of `depth` half-moves below pos: at each node has_any_legal_move must
// say whether generate_legal finds a move, and gives_check must say whether each move leaves
// the opponent in check (played). Counts the nodes and the checks.
void expect_shortcuts_agree(Position& pos, int depth, int& nodes, int& checks, int& no_moves) {
    MoveList list;
    generate_legal(pos, list);
    ++nodes;
    no_moves += list.empty();
    EXPECT_EQ(has_any_legal_move(pos), !list.empty()) << to_fen(pos.to_setup());
    for (const Move& m : list) {
        const bool predicted = gives_check(pos, m);
        UndoInfo u;
        pos.do_move(m, u);
        EXPECT_EQ(predicted, pos.in_check()) << to_fen(pos.to_setup());
        checks += predicted;
        if (depth > 1) expect_shortcuts_agree(pos, depth - 1, nodes, checks, no_moves);
        pos.undo_move(m, u);
    }
}

}  // namespace

// gives_check and has_any_legal_move (a king step first) with fairy walks: grasshoppers,
// whose hurdle may be the unit just moved or the square the king left, and nightriders,
// against playing every move, four half-moves deep (the h#2 mates included). The first diagram is Maeder's h#2
// (BEISPIEL_pieces_021 of Popeye).
TEST(Perft, FairyChecksAndLegalMovesAgreeWithPlaying) {
    const std::vector<rebirth::Setup> diagrams = {
        test::diagram({"wGd6", "wGa4", "wGg4", "wPg6", "wNb5", "wNh2", "wKe1", "bKe8", "bRd7", "bRa2", "bQe7", "bPe5",
                       "bPb4", "bPe4", "bPe3", "bPf3"},
                      BLACK),
        test::diagram({"wKe4", "wGe6", "wNc3", "wRh1", "bKe8", "bGe2", "bNf6", "bBb7", "bPd5"}),
        test::diagram({"wKa1", "wGb2", "wGc3", "wNd4", "bKh8", "bGg7", "bGf6", "bNe5", "bQb8"}, BLACK),
    };
    int nodes = 0, checks = 0, no_moves = 0;
    for (const rebirth::Setup& d : diagrams) {
        Position pos;
        pos.set(d);
        expect_shortcuts_agree(pos, 4, nodes, checks, no_moves);
    }
    std::printf("fairy shortcuts: %d nodes, %d checks, %d without a move\n", nodes, checks, no_moves);
    EXPECT_GE(checks, 1000);
    EXPECT_GE(no_moves, 1);  // mates reached: has_any_legal_move says false there
}

}  // namespace rebirth

namespace rebirth {

// between_bb and line_bb against their definitions, square by square: two squares on one
// rank, file or diagonal have the squares strictly between them and the whole line through
// both; other pairs (and a square with itself) have neither.
TEST(Bitboards, BetweenAndLineMatchTheirDefinitions) {
    init_bitboards();
    for (int a = 0; a < 64; ++a)
        for (int b = 0; b < 64; ++b) {
            const int df = b % 8 - a % 8, dr = b / 8 - a / 8;
            const bool aligned = a != b && (df == 0 || dr == 0 || std::abs(df) == std::abs(dr));
            Bitboard between = 0, line = 0;
            if (aligned) {
                const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
                for (int k = 1; k < std::max(std::abs(df), std::abs(dr)); ++k)
                    between |= square_bb(make_square(a % 8 + k * sf, a / 8 + k * sr));
                for (int k = -7; k <= 7; ++k) {
                    const int f = a % 8 + k * sf, r = a / 8 + k * sr;
                    if (f >= 0 && f < 8 && r >= 0 && r < 8) line |= square_bb(make_square(f, r));
                }
            }
            ASSERT_EQ(between_bb(Square(a), Square(b)), between) << a << " " << b;
            ASSERT_EQ(line_bb(Square(a), Square(b)), line) << a << " " << b;
        }
}

}  // namespace rebirth
