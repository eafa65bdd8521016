// The cage search (retro_cage.h): what it proves illegal must be illegal (the published
// answers of the janko.at records, Retractor's `legal` labels and positions of random legal
// games are never refuted), and it proves the caged positions of the reference data that the
// static analysis and the retractions a few moves deep leave open.

#include <gtest/gtest.h>

#include "test_util.h"

#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "rebirth/bitboard.h"
#include "rebirth/legality.h"
#include "rebirth/legality_proof.h"
#include "rebirth/movegen.h"
#include "rebirth/position.h"
#include "rebirth/retro.h"
#include "rebirth/retro_cage.h"
#include "rebirth/setup.h"
#include "rebirth/unmove.h"

namespace rebirth {
namespace {

namespace fs = std::filesystem;

// The retraction of `position` written `text` in janko notation (janko_notation).
UnMove retraction(const Setup& position, const std::string& text) {
    std::vector<UnMove> un;
    generate_unmoves(position, un);
    for (const UnMove& u : un)
        if (janko_notation(position, u) == text) return u;
    ADD_FAILURE() << text << ": no such retraction in " << to_fen(position);
    return {};
}

// A side not to move in a check no unit can block, or a side to move in two such checks (no
// single move gives both): illegal at once.
TEST(RetroCage, ContactChecks) {
    EXPECT_TRUE(cage_refutes(parse_fen("4k3/8/8/8/8/8/8/3qK3 b - - 0 1")));     // White's king next to the queen
    EXPECT_TRUE(cage_refutes(parse_fen("4k3/3P4/5N2/8/8/8/8/4K3 b - - 0 1")));  // pawn and knight check e8
    EXPECT_FALSE(cage_refutes(parse_fen("4k3/3P4/8/8/8/8/8/4K3 b - - 0 1")));   // the pawn's check alone
    EXPECT_FALSE(cage_refutes(parse_fen("4k3/8/8/8/8/8/8/q3K3 w - - 0 1")));    // a line check: d7-d1 is open
}

// janko.at's type A record JR-A-010 (Bartolovic, Gajdos, Maslar; lastmoves.jsonl): White's
// last move was QxB. Taking back Qh6-f8 (no capture) leaves White's king and bishop shut in
// by Black's unmoved pawns, Black's king and rook with no move back (Rg8-f8 and Rg8-g7 would
// have checked the king on f7, Kg7 stood next to it), and Black's one move back g7-g6
// leaves nothing: the cage. With a bishop taken back on f8 it has one (Bg7-f8).
TEST(RetroCage, ShutInKingAndBishop) {
    const rebirth::Setup diagram = parse_fen("4BQrk/3ppK1p/4p1p1/8/8/8/8/8 b - - 0 1");
    EXPECT_TRUE(cage_refutes(retract(diagram, retraction(diagram, "Qh6-f8"))));
    EXPECT_FALSE(cage_refutes(retract(diagram, retraction(diagram, "Qh6xBf8"))));
}

// The last moves possible_last_moves leaves in `diagram` are `published` alone.
void expect_only_last_move(const rebirth::Setup& diagram, const std::string& published) {
    const std::vector<UnMove> last = possible_last_moves(diagram, 3);
    ASSERT_EQ(last.size(), 1u);
    EXPECT_EQ(janko_notation(diagram, last[0]), published);
}

// The wider cage search refutes the last move `refuted` of `diagram`, not `published`, and
// `published` is the only last move left.
void expect_wide_search_leaves(const rebirth::Setup& diagram, const std::string& refuted,
                               const std::string& published) {
    EXPECT_TRUE(cage_refutes_wide(retract(diagram, retraction(diagram, refuted)), kCageStatesForFew)) << refuted;
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, published)), kCageStatesForFew)) << published;
    expect_only_last_move(diagram, published);
}

// janko.at's type A record JR-A-055 (lastmoves.jsonl, White moved last; published answer
// PxB=N). The static analysis and the cage search with kCageStatesForFew positions a region
// leave g7xBh8=N and g7xNh8=N. The wider look (cage_refutes_wide, possible_last_moves'
// second look where at most 4 are left) searches the squares within two king steps of the
// kings with six times as many: the knight cannot have come into the h8 corner. The
// published bishop's is never refuted.
TEST(RetroCage, WiderSearchForFewLastMoves) {
    const rebirth::Setup diagram = parse_fen("2bk1K1N/1ppp1p1q/p5pp/8/8/8/8/8 b - - 0 1");
    const rebirth::Setup knight = retract(diagram, retraction(diagram, "g7xNh8=N"));
    // Since the search's rules of 2026-12-01 (a king's way home never crosses a square an
    // unmoved pawn guards; squares between a king and a slider stay held; promotions counted by
    // bishop colour) the first look closes it already.
    EXPECT_TRUE(cage_refutes(knight, kCageStatesForFew));
    EXPECT_TRUE(cage_refutes_wide(knight, kCageStatesForFew));
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, "g7xBh8=N")), kCageStatesForFew));
    expect_only_last_move(diagram, "g7xBh8=N");
}

// janko.at's type C record JR-C-020 (data/retro/retractor_lastmoves.jsonl, published answer
// BxQ; Retractor solves it only with the cage e7-h8 given): with Bf8xRg7+ taken back, Black's
// rook came to g7 only from g8, into the corner that the bishops on f8 and h7 and the pawns
// shut round Black's king on h8; the squares round White's king on d4, far away, only add its
// positions. The search round Black's king alone closes it; with a queen taken the queen may
// have come from the diagonal: not refuted. JR-A-054 (type A, PxR=N): Black's one last move
// f7-f6 gets the second look because White has last moves left (narrow_few_last_moves'
// `others`), where the three ranks at the kings' edge close it.
TEST(RetroCage, EachKingAloneAndTheOtherSidesMovesInTypeA) {
    const rebirth::Setup c020 = parse_fen("4R2k/4ppBB/6pp/7P/3K4/8/8/8 b - - 0 1");
    EXPECT_TRUE(cage_refutes_wide(retract(c020, retraction(c020, "Bf8xRg7+")), kCageStatesForFew));
    expect_only_last_move(c020, "Bf8xQg7+");
    const rebirth::Setup white = parse_fen("3BN1qk/2pRK1pp/3ppp2/8/8/8/8/8 b - - 0 1");
    const rebirth::Setup black = parse_fen("3BN1qk/2pRK1pp/3ppp2/8/8/8/8/8 w - - 0 1");
    std::vector<UnMove> theirs = possible_last_moves(black, 3, nullptr, 1, false);
    ASSERT_EQ(theirs.size(), 1u);
    std::vector<UnMove> alone = theirs;
    narrow_few_last_moves(black, alone, nullptr, 1);
    EXPECT_EQ(alone.size(), 1u);  // a side's one last move alone is the answer: not looked at
    narrow_few_last_moves(black, theirs, nullptr, 1, possible_last_moves(white, 3, nullptr, 1, false).size());
    EXPECT_TRUE(theirs.empty());
}

// janko.at's type B records JR-B-037 (published answer PxB=R) and JR-B-022 (Bartolovic,
// Buljan; NxQ), White moved last. The cage search's third search, which hides at once the
// units that may leave the region in one retraction, closes cages with fewer positions: it
// refutes JR-B-037's f7xNg8=R (the knight cannot have come into the h8 corner) with 100
// positions a region, and JR-B-022's Nf6xRg8 (the black rook on g8, beside White's Rh8 and
// Kh7, behind Black's unmoved pawns) with kCageStatesForFew; before it, the first needed
// 5000 and the second 200,000 in a search of its own. The published answers are never
// refuted.
TEST(RetroCage, HidingUnitsThatMayLeaveClosesSooner) {
    const rebirth::Setup b037 = parse_fen("k4bRK/4p1pR/5p1p/8/8/8/8/8 b - - 0 1");
    EXPECT_TRUE(cage_refutes(retract(b037, retraction(b037, "f7xNg8=R")), 100));
    EXPECT_FALSE(cage_refutes_wide(retract(b037, retraction(b037, "f7xBg8=R")), kCageStatesForFew));
    expect_only_last_move(b037, "f7xBg8=R");
    const rebirth::Setup b022 = parse_fen("2bk2NR/1p1ppppK/7p/8/8/8/8/8 b - - 0 1");
    EXPECT_TRUE(cage_refutes(retract(b022, retraction(b022, "Nf6xRg8")), kCageStatesForFew));
    EXPECT_FALSE(cage_refutes_wide(retract(b022, retraction(b022, "Nf6xQg8")), kCageStatesForFew));
    expect_only_last_move(b022, "Nf6xQg8");
}

// janko.at's type A record JR-A-040 (Willcocks; lastmoves.jsonl: White moved last, published
// answer PxB=Q; Retractor needs two cages drawn by hand). g7xBf8=Q and g7xNf8=Q are left by
// every search but the last of cage_refutes_wide: the third search (a unit hidden as soon as
// it may leave in one retraction) on the units and the squares next to them. Before g7xNf8=Q
// the white king on f7 can never have come in: the black h-pawn and g-pawn on h6 and g6 either
// stepped there or crossed (h7xg6, g7xh6), and either way the king is shut in on the eighth
// rank and f7 behind the unmoved pawns.
TEST(RetroCage, UnitsThatMayLeaveAreHiddenAtOnce) {
    const rebirth::Setup diagram = parse_fen("4BQrr/pp1ppK1k/2p1p1pp/8/8/8/8/8 b - - 0 1");
    expect_wide_search_leaves(diagram, "g7xNf8=Q", "g7xBf8=Q");
    // Type A: Black has no last move (its king and rooks are walled in, its pawns' moves would
    // leave the white king in check or have no square behind them).
    EXPECT_TRUE(possible_last_moves(parse_fen("4BQrr/pp1ppK1k/2p1p1pp/8/8/8/8/8 w - - 0 1"), 3).empty());
}

// janko.at's duplex record JR-D-022 (lastmoves.jsonl: KxB and KxN, unordered). With White to
// move, Black's last move was Kf1xBe1 or Kf1xNe1. Before Kf1xNe1 the knight on e1 can only
// have come from d3 or f3, so before d2-d3 or f2-f3; the pawns on rank 2 (b2, c2, e2, g2, h2
// never moved) keep the black king off rank 3 but for e3, and off e3 until both d2 and f2 have
// stepped up; once both have, the pocket f1-h1 is shut by the knight, the pawns and (once it
// came there from f1) the rook on f2, and the two kings cannot both be inside it. Only the
// search on the half of the board with ranks 1-4 closes this (cage_refutes_wide's last, with
// between 60,000 and 100,000 positions); the
// bishop, which can come to e1 from d2 or f2 after the king, is never refuted, and with
// White's last move (KxN) the record is proved.
TEST(RetroCage, HalfOfTheBoardClosesAPocket) {
    const rebirth::Setup diagram = parse_fen("8/8/8/8/8/3P1P2/1PPRPrPP/2B1k2K w - - 0 1");
    const rebirth::Setup knight = retract(diagram, retraction(diagram, "Kf1xNe1"));
    // Since the search's rules of 2026-12-01 (see WiderSearchForFewLastMoves) the first look
    // closes it already, with a third of the positions too.
    EXPECT_TRUE(cage_refutes(knight, kCageStatesForFew));
    EXPECT_TRUE(cage_refutes_wide(knight, kCageStatesForFew));
    EXPECT_TRUE(cage_refutes_wide(knight, kCageStatesForFew / 3));
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, "Kf1xBe1")), kCageStatesForFew));
    expect_only_last_move(diagram, "Kf1xBe1");
}

// janko.at's duplex record JR-D-019 (Lois, Osorio; lastmoves.jsonl: KxR for both sides;
// Retractor needs two cages drawn by hand). With b2xc3 taken back White's pawn stands again
// on b2, and Black's king and bishops on a2, b1, c2 with White's a1-d1 and the pawns b3, d3
// are shut in; Black's corner a8 holds units that still move. The cage search closes it on
// the squares next to the group of units that have no retraction in a1-d3, not on those next
// to both groups, whose positions multiply. The published Ka6xRa7 is never refuted.
TEST(RetroCage, GroupsOfShutInUnitsAreSearchedApart) {
    const rebirth::Setup diagram = parse_fen("nBqb4/K1Bpp3/1ppp4/8/8/1PPP4/k1bPP3/NbQB4 b - - 0 1");
    for (const char* taken : {"b2xQc3", "b2xRc3", "b2xBc3", "b2xNc3"})
        EXPECT_TRUE(cage_refutes(retract(diagram, retraction(diagram, taken)))) << taken;
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, "Ka6xRa7")), kCageStatesForFew));
    expect_only_last_move(diagram, "Ka6xRa7");
    // The same by colour: Black's last move was Ka3xRa2.
    expect_only_last_move(parse_fen("nBqb4/K1Bpp3/1ppp4/8/8/1PPP4/k1bPP3/NbQB4 w - - 0 1"), "Ka3xRa2");
}

// janko.at's duplex record JR-D-136 (lastmoves.jsonl: both last moves PxN=Q). With h2xRg1=Q
// taken back (a helper's hand proof, this session): the black king came to e2 from e1, f1 or
// f2 (d3, e3, f3 are held by the pawns' attacks, d1 by the bishop that came in over e2), the
// queen last came g1-f1 after it, the rook then h1-g1, and the white knight last to h1 from
// g3 (f2 was the rook's), checking the king on e2 there. The units with no retraction
// (d1-h1, f2) with the king beside them close it within 1000 positions; without the king's
// neighbours the king goes back to d3 and leaves the region, which then stays open. The
// published h2xNg1=Q is not refuted.
TEST(RetroCage, KingsBesideShutInUnitsAreFollowedWithThem) {
    const rebirth::Setup diagram = parse_fen("4nQQB/2pp1ppK/3p4/8/8/5P2/PPPPkrP1/3bbqqN w - - 0 1");
    const rebirth::Setup rook = retract(diagram, retraction(diagram, "h2xRg1=Q"));
    EXPECT_TRUE(cage_refutes(rook, 1000));
    // The squares next to the units with no retraction: c1-h1, c2-h2, e3-g3.
    Bitboard next_to_stuck = 0;
    for (int f = 2; f < 8; ++f) next_to_stuck |= square_bb(make_square(f, 0)) | square_bb(make_square(f, 1));
    for (int f = 4; f < 7; ++f) next_to_stuck |= square_bb(make_square(f, 2));
    EXPECT_FALSE(cage_refutes_in(rook, next_to_stuck, 20000));
    EXPECT_TRUE(cage_refutes_in(rook, next_to_stuck | square_bb(SQ_D3), 1000));
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, "h2xNg1=Q")), kCageStatesForFew));
}

// janko.at's duplex record JR-D-157 (Keym; lastmoves.jsonl: with White to move, Black's last
// move was PxQ=N). The static analysis and the cage searches of cage_refutes_wide leave
// e2xQd1=N and h7-h6; the last part of possible_last_moves' second look takes two more
// single moves back from each, every position on the way against the static analysis and
// the cage search: h7-h6 falls (before it White castled, its king and rook then frozen; before
// that Black's only move back is e2xd1=N, its king walled in), the published e2xQd1=N stays.
TEST(RetroCage, TwoMoreMovesBackForFewLastMoves) {
    const rebirth::Setup diagram = parse_fen("8/6p1/7p/8/6P1/2PPkPPB/1PrR1RPr/2Bn1RK1 w - - 0 1");
    // Since the search's rules of 2026-12-01 (see WiderSearchForFewLastMoves) the wider look
    // refutes h7-h6 already.
    EXPECT_TRUE(cage_refutes_wide(retract(diagram, retraction(diagram, "h7-h6")), kCageStatesForFew));
    expect_only_last_move(diagram, "e2xQd1=N");
}

// A king and rook that keep a castling right never moved before (Setup::castling; so too
// after a castling is taken back). White moved last in k7/8/8/8/8/8/5PPP/4K2R with the right
// K: its king and rook never moved, its pawns stand on their second rank: no white unit can
// have made that move, the position is illegal. Without the right, Kf1-e1 or Rg1-h1 may have
// been the last move (not refuted).
TEST(RetroCage, CastlingRightsFreezeKingAndRook) {
    const Bitboard everywhere = ~Bitboard(0);
    EXPECT_TRUE(cage_refutes_in(parse_fen("k7/8/8/8/8/8/5PPP/4K2R b K - 0 1"), everywhere, 1000));
    EXPECT_FALSE(cage_refutes_in(parse_fen("k7/8/8/8/8/8/5PPP/4K2R b - - 0 1"), everywhere, 1000));
    // The static analysis and one retraction see it too (fits_history): the two agree.
    EXPECT_FALSE(may_be_legal(parse_fen("k7/8/8/8/8/8/5PPP/4K2R b K - 0 1"), 1));
}

// A followed unit that can never get home is a dead end (may_get_home): in
// 4k3/8/8/8/8/8/5PPP/4KR1R with White's right K, the rook on f1 can have come in only through
// e1 (the king's, who never moved), g1 (reached only from h1, whose rook never moved, or over
// g2) or f2 (White's unmoved pawns): illegal, at the first position. Without the right the
// king may have stepped aside for it (Ke1-e2, Ra1-f1, Ke2-e1): not refuted.
TEST(RetroCage, UnitsThatCannotGetHome) {
    EXPECT_TRUE(cage_refutes(parse_fen("4k3/8/8/8/8/8/5PPP/4KR1R b K - 0 1"), 1));
    EXPECT_FALSE(cage_refutes(parse_fen("4k3/8/8/8/8/8/5PPP/4KR1R b - - 0 1")));
}

// Retractor's legality labels (legality.jsonl): a `legal` label is never refuted; LG-082,
// Black's bishops on a2 and b1 behind White's pawns b2, b3 and c2 (b3 took on a2 or c2 and
// neither bishop can have come in after), is, and at least 13 of the 41 `illegal` ones.
TEST(RetroCage, RetractorLabels) {
    const auto file = fs::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "legality.jsonl";
    int legal = 0, refuted = 0;
    bool corner = false;
    for (const auto& j : test::read_jsonl(file)) {
        const std::string id = j["id"], expected = j["expected"];
        const bool caged = cage_refutes(parse_fen(j["fen"].get<std::string>()));
        if (expected == "legal") {
            ++legal;
            EXPECT_FALSE(caged) << id;
        } else {
            refuted += caged;
            if (id == "LG-082") corner = caged;
        }
    }
    EXPECT_EQ(legal, 40);
    EXPECT_TRUE(corner);
    EXPECT_GE(refuted, 13);
    // The legality judge gives the cage as its reason.
    const LegalityProof p = judge_legality(parse_fen("4k3/8/8/8/8/1P6/bPP5/1b2K3 b - - 0 1"), 1, {1000, 1});
    EXPECT_EQ(p.verdict, LegalityProof::Verdict::Illegal);
    EXPECT_NE(p.reason.find("caged units"), std::string::npos) << p.reason;
}

// janko.at's duplex record JR-D-046 (lastmoves.jsonl: Black's last move RxN; helpers' hand
// proofs this session). With Re1-d1 taken back, White's last move was the bishop's from d1 to
// e2 (every other white unit is shut in), and from there no unit of the group d1-h1, b2-h2,
// d3-g3 can be taken back: the square between a rook and the white king stays held (the
// search's blocked squares), and the black king came to h2 over e3 before e2-e3, never over
// a square an unmoved pawn guards (the kings' way home). With Re1xNd1 the knight came from c3
// and the group opens.
TEST(RetroCage, SquaresBetweenASliderAndTheKingThatMovedStayHeld) {
    expect_wide_search_leaves(parse_fen("8/8/8/8/8/3PPPP1/1PPrBKPk/2Br1Q1N w - - 0 1"), "Re1-d1", "Re1xNd1");
}

// janko.at's duplex record JR-D-073 (lastmoves.jsonl: Black's last move B-; Retractor's test
// notes a cage with an uncapture on e2 it cannot verify). With Be2xQd1 taken back, White's
// queen, the rook on f1 and Black's bishop stay on d1-f1 and e2 from the last move of the
// units round them on, and those moves leave one of d1, e1, f1 empty; castling is not taken
// back where the bishop on e2 attacks f1, and the bishop on h3 is the f1 bishop (a bishop of
// that colour whose home is shut in was promoted). The search that follows the units
// retractions bring back and hides those that may leave, never the kings, closes it within
// 300 positions. Be2-d1 is never refuted.
TEST(RetroCage, CastlingIsNotTakenBackThroughAnAttackedSquare) {
    expect_wide_search_leaves(parse_fen("8/8/8/8/6P1/2PPkPPB/1PrR1RPr/2Bb1RK1 w - - 0 1"), "Be2xQd1", "Be2-d1");
}

// The three ranks at an edge that holds a king (janko.at's duplex record JR-D-139,
// lastmoves.jsonl; data/retro/hand-proofs/JR-D-139.md, proofs 1 and 3). With a7xRb8=R taken
// back, Black's knights on a8 and e8, rooks on b8 and c8 and White's king on d7 have no
// retraction that leaves the kings out of check (Na8-b6, Ne8-f6 and Rc8-d8 check the king on
// d7, which on d8 would stand in a check Black's last move cannot have given), and a rook on
// b8 of Black's is no promotion: the group never moves back. With h2xRg1=R the same for
// White's rooks on f1 and g1, knight on h1 and Black's king on e2. A queen taken back goes
// home (Qb8-a7 once the pawn is back on a6, Qg1-h2). The kings stand in different halves of
// the board, so the half-board search does not run.
TEST(RetroCage, EdgeRanksHoldingAKingAreSearched) {
    const auto diagram = [](const std::string& stm) {
        return parse_fen("nRr1n3/1ppKp1p1/1p1pp3/8/8/3PP3/1P1PkPP1/3N1RrN " + stm + " - - 0 1");
    };
    expect_wide_search_leaves(diagram("b"), "a7xRb8=R", "a7xQb8=R");
    expect_wide_search_leaves(diagram("w"), "h2xRg1=R", "h2xQg1=R");
}

// A piece on its last rank whose last move the cage search proves to be its promotion there
// (promoted_on_its_square) counts, in the static analysis, as promoted on that square. janko.at's
// duplex record JR-D-160 (Osorio, Lois, Buchanan; a helper's hand proof this session): with
// a7xQb8=N taken back, the black knight on g1 cannot have come there by a knight's move (e2
// never moved, h3 holds White's h-pawn, and from f3 it would check the white king on e1, whose
// last arrival came first), so by h2xg1=N; with the bishop f1 lost at home, Black's second
// queen and that knight then need more captures than the five Black made. Before the published
// a7xNb8=N the same knight is proved promoted and the count fits. The mirror image for Black's
// last move. The game array's knights never moved and are not proved promoted.
TEST(RetroCage, PiecesProvedPromotedOnTheirSquares) {
    const auto promoted_here = [](const rebirth::Setup& s, Square q) {
        LegalityMarks marks;
        marks.promoted_here = square_bb(q);
        return analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square, marks);
    };
    const rebirth::Setup white_to_move = parse_fen("1Nqkrb2/1pppp1p1/p7/8/8/7P/1P1PPPP1/2BRKQn1 b - - 0 1");
    const rebirth::Setup queen = retract(white_to_move, retraction(white_to_move, "a7xQb8=N"));
    const rebirth::Setup knight = retract(white_to_move, retraction(white_to_move, "a7xNb8=N"));
    ASSERT_TRUE(promoted_on_its_square(queen, SQ_G1, 1000));
    EXPECT_TRUE(promoted_here(queen, SQ_G1).illegal);
    EXPECT_FALSE(analyze_orthodox_legality(queen.board, queen.side_to_move).illegal);  // without the mark
    ASSERT_TRUE(promoted_on_its_square(knight, SQ_G1, 1000));
    EXPECT_FALSE(promoted_here(knight, SQ_G1).illegal);
    const rebirth::Setup black_to_move = parse_fen("1Nqkrb2/1pppp1p1/p7/8/8/7P/1P1PPPP1/2BRKQn1 w - - 0 1");
    const rebirth::Setup white_queen = retract(black_to_move, retraction(black_to_move, "h2xQg1=N"));
    ASSERT_TRUE(promoted_on_its_square(white_queen, SQ_B8, 1000));
    EXPECT_TRUE(promoted_here(white_queen, SQ_B8).illegal);
    expect_only_last_move(white_to_move, "a7xNb8=N");
    expect_only_last_move(black_to_move, "h2xNg1=N");
    const rebirth::Setup array = parse_fen(kGameArrayFen);
    for (const Square q : {SQ_B1, SQ_G1, SQ_B8, SQ_G8, SQ_A1, SQ_D8})
        EXPECT_FALSE(promoted_on_its_square(array, q, 1000));
}

// In random legal games biased to promotions, every piece on its last rank that
// promoted_on_its_square proves promoted there made its promotion there as its last move, and
// the static analysis with that mark does not call the position illegal.
TEST(RetroCage, PromotedOnTheirSquaresOnlyWhenTheyWere) {
    MoveList list;
    int claims = 0;
    for (int game = 0; game < 80; ++game) {
        std::mt19937 rng(20261202 + unsigned(game));
        Position pos(parse_fen(kGameArrayFen));
        std::array<bool, SQUARE_NB> promoted{};  // the unit there came by a promotion as its last move
        for (int ply = 0; ply < 160; ++ply) {
            generate_legal(pos, list);
            if (list.size() == 0) break;
            const test::PawnRace race = test::pawn_race(pos, list);
            Move m = list[rng() % list.size()];
            if (!race.promotions.empty() && rng() % 2)
                m = race.promotions[rng() % race.promotions.size()];
            else if (game % 2 == 0 && !race.ahead.empty() && rng() % 4)
                m = race.ahead[rng() % race.ahead.size()];
            UndoInfo undo;
            pos.do_move(m, undo);
            promoted[m.from] = false;
            if (m.kind == MoveKind::Castling)
                for (const Square q : {SQ_A1, SQ_D1, SQ_F1, SQ_H1, SQ_A8, SQ_D8, SQ_F8, SQ_H8}) promoted[q] = false;
            promoted[m.to] = m.kind == MoveKind::Promotion;
            const rebirth::Setup s = pos.to_setup();
            for (int i = 0; i < SQUARE_NB; ++i) {
                const Square q = Square(i);
                if (!promoted_on_its_square(s, q, 1000)) continue;
                ++claims;
                ASSERT_TRUE(promoted[q]) << to_fen(s) << ": " << square_name(q) << " (game " << game << ")";
                LegalityMarks marks;
                marks.promoted_here = square_bb(q);
                ASSERT_FALSE(analyze_orthodox_legality(s.board, s.side_to_move, s.castling, s.ep_square, marks).illegal)
                    << to_fen(s) << ": " << square_name(q);
            }
        }
    }
    EXPECT_GT(claims, 8);
}

// Every janko.at record's published last move survives the cage search (its earlier position
// is legal: the record's diagram is).
TEST(RetroCage, PublishedLastMovesAreNeverCaged) {
    const fs::path file = fs::path(REBIRTH_SHARED_DIR) / "reference" / "retro" / "lastmoves.jsonl";
    int checked = 0;
    for (const auto& j : test::read_jsonl(file)) {
        const std::string type = j["record_type"];
        if (type == "other" || type == "D") continue;
        const std::string expected = j["expected"].is_array() ? j["expected"][0] : j["expected"];
        const std::string to_move = j["retract_first"] == "w" ? "b" : "w";
        const rebirth::Setup diagram = parse_fen(j["placement"].get<std::string>() + " " + to_move + " - - 0 1");
        bool survives = false;
        std::vector<UnMove> un;
        generate_unmoves(diagram, un);
        for (const UnMove& u : un)
            if (last_move_type(diagram, u) == expected && !cage_refutes(retract(diagram, u))) survives = true;
        EXPECT_TRUE(survives) << j["id"] << ": " << expected;
        ++checked;
    }
    EXPECT_EQ(checked, 57);
}

// janko.at's duplex record JR-D-130 (Keym; lastmoves.jsonl: PxP for both sides; the hand
// proof in data/retro/hand-proofs/JR-D-130.md). Before White's f3xBe4 Black's king came last
// to f2 from g3 with White's king on h1 and Black's queen on f1, so a white unit stood on g1
// then; it could neither leave g1 and h1 again nor be taken there (Black's pieces made one
// capture, the bishop shut in on f1, and Black promoted nothing: promoted_nothing). The exact
// search, which knows the squares within a king step of the kings (units coming and going
// across their edge followed), proves it in about 25,000 positions; the relaxed search on the
// same squares does not (a hidden unit there shields h1 and is forgotten). The published
// f6xPg7 is left.
TEST(RetroCage, AUnitThatShieldedACheckCameAndWent) {
    const rebirth::Setup diagram = parse_fen("8/ppp3P1/2pp4/8/4P3/7P/p1PPPkPK/4bq2 b - - 0 1");
    const rebirth::Setup before = retract(diagram, retraction(diagram, "f3xBe4"));
    Bitboard corner = 0;  // files e-h, ranks 1-3
    for (int f = 4; f < 8; ++f)
        for (int r = 0; r < 3; ++r) corner |= square_bb(make_square(f, r));
    EXPECT_FALSE(cage_refutes_in(before, corner, 50000));
    EXPECT_TRUE(cage_refutes_exact(before, corner, corner, 40000));
    EXPECT_TRUE(cage_refutes_wide(before, kCageStatesForFew));
    EXPECT_FALSE(cage_refutes_wide(retract(diagram, retraction(diagram, "f6xPg7")), kCageStatesForFew));
}

// janko.at's duplex record JR-D-151 (lastmoves.jsonl: Black's last move a2xRb1=B; the hand
// proof in data/retro/hand-proofs/JR-D-151.md). Before a2xNb1=B the static analysis finds
// White's light bishop on g8 and knight on e8 promoted on e8 and nowhere else (on g8, by
// h7xg8 or f7xg8, the pawn would need more captures than Black's missing units allow). The
// exact search tracks them, so it never takes back h7xg8=B: then, on the squares within a
// king step of the kings and those the pieces there came from by one step (d8, d6, c7),
// White's king on f7, queen on f8, bishops on e7 and g8 and Black's king on h8 and bishop on
// d8 have no order of last arrivals (the queen came to f8 over g8, mating or shutting out
// Black's king; the white king to f7 from g8, beside h8). Without tracking the same search
// finds a history (h7xg8=B with a black unit back on g8); before the published a2xRb1=B it
// finds one with tracking too (the bishop may have been promoted on g8 there).
TEST(RetroCage, APromotedBishopsSquareFromTheStaticAnalysis) {
    const rebirth::Setup diagram = parse_fen("NrbbNQBk/1PppBKp1/1p1p1pp1/8/8/8/1PP1P1PP/1b6 w - - 0 1");
    const rebirth::Setup knight = retract(diagram, retraction(diagram, "a2xNb1=B"));
    const rebirth::Setup rook = retract(diagram, retraction(diagram, "a2xRb1=B"));
    const auto promoted_on = [](const rebirth::Setup& s, Square unit, Square q) {
        LegalityMarks marks;
        marks.promoted_unit = unit;
        marks.promoted_on = square_bb(q);
        return !analyze_orthodox_legality(s.board, s.side_to_move, 0, SQ_NONE, marks).illegal;
    };
    EXPECT_TRUE(promoted_on(knight, SQ_G8, SQ_E8));
    EXPECT_FALSE(promoted_on(knight, SQ_G8, SQ_G8));
    EXPECT_TRUE(promoted_on(knight, SQ_E8, SQ_E8));
    EXPECT_TRUE(promoted_on(rook, SQ_G8, SQ_G8));
    Bitboard pocket = square_bb(SQ_C7) | square_bb(SQ_D6) | square_bb(SQ_D8);
    for (const Square k : {SQ_F7, SQ_H8}) pocket |= king_attacks(k) | square_bb(k);
    EXPECT_TRUE(cage_refutes_exact(knight, pocket, pocket, 40000));
    EXPECT_FALSE(cage_refutes_exact(rook, pocket, pocket, 40000));
    EXPECT_TRUE(cage_refutes_wide(knight, kCageStatesForFew));
    EXPECT_FALSE(cage_refutes_wide(rook, kCageStatesForFew));
}

// The exact search on positions of random legal games (fixed seed; uniform games and games
// biased to pawn moves, king moves, captures and promotions, where the search tracks promoted
// pieces: Cage::tracked), on the squares within one and two king steps of the kings: never
// refuted.
TEST(RetroCage, ExactSearchNeverRefutesRandomGames) {
    std::mt19937 rng(20261204);
    MoveList list;
    int positions = 0, after_promotions = 0;
    for (int game = 0; game < 125; ++game) {
        Position pos(parse_fen(kGameArrayFen));
        const int style = game % 5, plies = 20 + int(rng() % 140);
        bool promoted = false;
        for (int ply = 0; ply < plies; ++ply) {
            generate_legal(pos, list);
            if (list.size() == 0) break;
            std::vector<Move> biased;
            for (const Move& m : list) {
                const Walk w = pos.piece_on(m.from).walk;
                if ((style == 1 && w == PAWN) || (style == 2 && w == KING) || (style == 3 && !pos.empty(m.to)) ||
                    (style == 4 && (m.kind == MoveKind::Promotion || (w == PAWN && rng() % 2))))
                    biased.push_back(m);
            }
            const Move m = !biased.empty() && rng() % 3 ? biased[rng() % biased.size()] : list[rng() % list.size()];
            promoted = promoted || m.kind == MoveKind::Promotion;
            UndoInfo undo;
            pos.do_move(m, undo);
            if (ply < 8 || ply % 3) continue;
            after_promotions += promoted;
            const rebirth::Setup s = pos.to_setup();
            Bitboard kings = 0;
            for (int i = 0; i < SQUARE_NB; ++i)
                if (s.board[i].walk == KING) kings |= square_bb(Square(i));
            for (int steps : {1, 2}) {
                Bitboard region = 0;
                for (Bitboard b = kings; b;) {
                    const Square k = pop_lsb(b);
                    for (int f = file_of(k) - steps; f <= file_of(k) + steps; ++f)
                        for (int r = rank_of(k) - steps; r <= rank_of(k) + steps; ++r)
                            if (f >= 0 && f < 8 && r >= 0 && r < 8) region |= square_bb(make_square(f, r));
                }
                ++positions;
                ASSERT_FALSE(cage_refutes_exact(s, region, region, 1000)) << to_fen(s) << " (" << steps << " steps)";
            }
        }
    }
    EXPECT_GT(positions, 2000);
    EXPECT_GT(after_promotions, 300);
    std::printf("%d positions, %d after a promotion\n", positions, after_promotions);
}

// Positions of random legal games (fixed seeds) are never refuted: uniform games, games where
// half the moves are pawn single steps (they shut units in behind pawns), and games of king
// moves after a few pawn steps (kings walk into corners and next to walls).
TEST(RetroCage, RandomGamesAreNeverCaged) {
    using Choose = std::function<std::optional<Move>(const Position&, const MoveList&, std::mt19937&)>;
    const auto any = [](const MoveList& list, std::mt19937& rng) {
        return list[std::uniform_int_distribution<int>(0, int(list.size()) - 1)(rng)];
    };
    const std::vector<Choose> styles = {
        [&](const Position&, const MoveList& list, std::mt19937& rng) { return std::optional<Move>(any(list, rng)); },
        [&](const Position& pos, const MoveList& list, std::mt19937& rng) {
            std::vector<Move> steps;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == PAWN && file_of(m.from) == file_of(m.to) &&
                    (m.to - m.from == 8 || m.from - m.to == 8))
                    steps.push_back(m);
            if (!steps.empty() && rng() % 2) return std::optional<Move>(steps[rng() % steps.size()]);
            return std::optional<Move>(any(list, rng));
        },
        [&](const Position& pos, const MoveList& list, std::mt19937& rng) {
            std::vector<Move> kings;
            for (const Move& m : list)
                if (pos.piece_on(m.from).walk == KING) kings.push_back(m);
            if (!kings.empty() && rng() % 4) return std::optional<Move>(kings[rng() % kings.size()]);
            return std::optional<Move>(any(list, rng));
        },
    };
    int positions = 0;
    MoveList list;
    for (size_t style = 0; style < styles.size(); ++style) {
        std::mt19937 rng(20261130 + unsigned(style));
        for (int game = 0; game < 30; ++game) {
            Position pos(parse_fen(kGameArrayFen));
            for (int ply = 0; ply < 160; ++ply) {
                generate_legal(pos, list);
                if (list.size() == 0) break;
                const Move m = *styles[style](pos, list, rng);
                UndoInfo undo;
                pos.do_move(m, undo);
                if (ply % 10 != 9) continue;
                const rebirth::Setup s = pos.to_setup();
                ++positions;
                ASSERT_FALSE(cage_refutes(s)) << to_fen(s) << " (style " << style << ", game " << game << ")";
                // Every fifth also against the wider look's searches (fewer positions each).
                if (positions % 5 == 0) {
                    ASSERT_FALSE(cage_refutes_wide(s, 200)) << to_fen(s) << " (wide; style " << style << ")";
                }
            }
        }
    }
    EXPECT_GT(positions, 1000);
}

}  // namespace
}  // namespace rebirth
