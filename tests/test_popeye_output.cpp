// Popeye's problem header (src/io/popeye_output.cpp) against Popeye 4.104's own output.
//
// Where the header ends in a reference NAME.out: Popeye prints remarks and messages, then
// (unless NoBoard) the author/origin/award/title lines, the diagram(s), the stipulation line
// and the centred attribute/condition/option lines. The header is every line up to, not
// including, the first empty line after the last diagram border "+---a---b..."; with no
// diagram (NoBoard) it is every line before the first empty line. That empty line and
// everything after it (twin announcements "a) ", the solution) belong to the solver.

#include <gtest/gtest.h>

#include "test_util.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "rebirth/popeye_input.h"
#include "rebirth/popeye_output.h"
#include "rebirth/problem.h"
#include "rebirth/walk.h"

namespace rebirth {
namespace {

using rebirth::test::read_text;

namespace fs = std::filesystem;

const fs::path kProblems = fs::path(REBIRTH_SHARED_DIR) / "reference" / "problems";

// The header prefix of a Popeye output, by the rule in the comment at the top of this file.
std::string header_prefix(const std::string& out) {
    std::vector<std::string> lines;
    for (size_t start = 0; start < out.size();) {
        size_t end = out.find('\n', start);
        end = end == std::string::npos ? out.size() : end + 1;
        lines.push_back(out.substr(start, end - start));
        start = end;
    }
    size_t first = 0;
    for (size_t i = 0; i < lines.size(); ++i)
        if (lines[i].rfind("+---a---b", 0) == 0) first = i + 1;
    size_t stop = first;
    while (stop < lines.size() && lines[stop] != "\n") ++stop;
    std::string header;
    for (size_t i = 0; i < stop; ++i) header += lines[i];
    return header;
}

std::string reference_header(std::string_view name) {
    return header_prefix(read_text(kProblems / (std::string(name) + ".out")));
}

// Units as "wKf2 bQh8 wfSc8" (English letters; an 'f' after the colour marks FrischAuf).
std::array<Piece, SQUARE_NB> board_of(std::string_view units) {
    std::array<Piece, SQUARE_NB> board{};
    std::istringstream in{std::string(units)};
    std::string unit;
    while (in >> unit) {
        Piece piece;
        piece.color = unit[0] == 'b' ? BLACK : WHITE;
        size_t pos = 1;
        if (unit[pos] == 'f') {
            piece.flags |= PF_PROMOTED;
            ++pos;
        }
        piece.walk = walk_from_code(unit.substr(pos, unit.size() - pos - 2), Language::English);
        board[parse_square(unit.substr(unit.size() - 2))] = piece;
    }
    return board;
}

Stipulation stip(std::string text, Stipulation::Play play = Stipulation::Play::Direct, int half_moves = 0) {
    Stipulation s;
    s.text = std::move(text);
    s.play = play;
    s.half_moves = half_moves;
    return s;
}

// Everything after the last diagram border of a header.
std::string captions_of(const std::string& header) {
    const std::string border = "+---a---b---c---d---e---f---g---h---+\n";
    size_t at = header.rfind(border);
    return at == std::string::npos ? header : header.substr(at + border.size());
}

TEST(PopeyeOutput, CentreLineFollowsPopeyesRule) {
    // Widths taken from BEISPIEL-cirpiece-01.out, TESTS-circe-21.out, TESTS-circe-06.out.
    EXPECT_EQ(centre_line("Circe"), "                Circe\n");
    EXPECT_EQ(centre_line("Circe VerticalMirror RexInclusive"), "  Circe VerticalMirror RexInclusive\n");
    EXPECT_EQ(centre_line("only example of Mirror File Anticirce"), "only example of Mirror File Anticirce\n");
    EXPECT_EQ(centre_line("?"), "                  ?\n");  // BEISPIEL-assass-01.out
}

// BEISPIEL-cirpiece-01.out: German piece letters, author and origin, diagram, count, Circe.
TEST(PopeyeOutput, GermanHeaderOfCirpiece01) {
    Problem p;
    p.language = Language::German;
    p.authors = {"Torsten Lin\"s"};
    p.origin = "unver\"offentlicht";
    p.stipulation = stip("#2", Stipulation::Play::Direct, 3);
    p.conditions = {{"Circe", {}}};
    p.setup.board = board_of(
        "wKf2 wQa7 wRb5 wBg8 wSb2 wSc6 wPg3 "
        "bKe4 bQh8 bRb6 bBc8 bBf6 bSa3 bSd2 bPd3 bPd4 bPd6 bPg4 bPg7 bPh5");
    const std::string expected =
        "\n"
        "            Torsten Lin\"s\n"
        "          unver\"offentlicht\n"
        "\n"
        "+---a---b---c---d---e---f---g---h---+\n"
        "|                                   |\n"
        "8   .   .  -L   .   .   .   L  -D   8\n"
        "|                                   |\n"
        "7   D   .   .   .   .   .  -B   .   7\n"
        "|                                   |\n"
        "6   .  -T   S  -B   .  -L   .   .   6\n"
        "|                                   |\n"
        "5   .   T   .   .   .   .   .  -B   5\n"
        "|                                   |\n"
        "4   .   .   .  -B  -K   .  -B   .   4\n"
        "|                                   |\n"
        "3  -S   .   .  -B   .   .   B   .   3\n"
        "|                                   |\n"
        "2   .   S   .  -S   .   K   .   .   2\n"
        "|                                   |\n"
        "1   .   .   .   .   .   .   .   .   1\n"
        "|                                   |\n"
        "+---a---b---c---d---e---f---g---h---+\n"
        "  #2                         7 + 13\n"
        "                Circe\n";
    EXPECT_EQ(expected, reference_header("BEISPIEL-cirpiece-01"));
    EXPECT_EQ(format_header(p), expected);
}

// EXAMPLES-lastcap-01.out: `cond parr lastcap wh bg4` writes LastCapture on a line of its own.
TEST(PopeyeOutput, ParrainLastCaptureOfLastcap01) {
    Problem p;
    p.authors = {"Stephen Emmerson"};
    p.origin = "Unpublished";
    p.stipulation = stip("#1", Stipulation::Play::Direct, 1);
    p.conditions = {{"Circe", {"Parrain", "LastCapture", "White", "Bg4"}}};
    p.setup.board = board_of("wKa1 wQf2 bKc1 bPb3 bPg4");
    const std::string expected =
        "\n"
        "          Stephen Emmerson\n"
        "             Unpublished\n"
        "\n"
        "+---a---b---c---d---e---f---g---h---+\n"
        "|                                   |\n"
        "8   .   .   .   .   .   .   .   .   8\n"
        "|                                   |\n"
        "7   .   .   .   .   .   .   .   .   7\n"
        "|                                   |\n"
        "6   .   .   .   .   .   .   .   .   6\n"
        "|                                   |\n"
        "5   .   .   .   .   .   .   .   .   5\n"
        "|                                   |\n"
        "4   .   .   .   .   .   .  -P   .   4\n"
        "|                                   |\n"
        "3   .  -P   .   .   .   .   .   .   3\n"
        "|                                   |\n"
        "2   .   .   .   .   .   Q   .   .   2\n"
        "|                                   |\n"
        "1   K   .  -K   .   .   .   .   .   1\n"
        "|                                   |\n"
        "+---a---b---c---d---e---f---g---h---+\n"
        "  #1                          2 + 3\n"
        "            Circe Parrain\n"
        "             LastCapture\n";
    EXPECT_EQ(expected, reference_header("EXAMPLES-lastcap-01"));
    EXPECT_EQ(format_header(p), expected);
    // The same qualifier given as a condition of its own prints the same.
    p.conditions = {{"LastCapture", {"White", "Bg4"}}, {"Circe", {"Parrain"}}};
    EXPECT_EQ(format_header(p), expected);
}

// Caption blocks (stipulation line and condition lines) copied from the cited files.
TEST(PopeyeOutput, ConditionOrderingAndWords) {
    Problem p;
    p.stipulation = stip("x1", Stipulation::Play::Direct, 1);
    p.setup.board = board_of("wSc3 bSd5");

    // TESTS-circe-25.out: two chameleon cycles, each started at its first walk in Popeye order.
    p.conditions = {{"Circe", {"Chameleon", "S", "Q", "R", "B", "S"}},
                    {"AntiCirce", {"Chameleon", "S", "R", "Q", "B", "S"}}};
    EXPECT_EQ(captions_of(format_header(p)),
              "  x1                          1 + 1\n"
              "    Circe Chameleon Q->R->B->S->Q\n"
              "  AntiCirce Chameleon Q->B->S->R->Q\n");

    // TESTS-circe-06.out: `mirrorfileanticirce`.
    p.conditions = {{"AntiCirce", {"Mirror", "File"}}};
    EXPECT_EQ(captions_of(format_header(p)),
              "  x1                          1 + 1\n"
              "        AntiCirce File Mirror\n");

    // TESTS-anticirce-14.out, TESTS-anticirce-20.out, TESTS-circe-21.out, TESTS-circe-10.out.
    EXPECT_EQ(format_condition_lines({{"AntiCirce", {"Relaxed", "Super"}}}, Language::English),
              std::vector<std::string>{"AntiCirce Super Relaxed"});
    EXPECT_EQ(format_condition_lines({{"AntiCirce", {"RexExclusive"}}}, Language::English),
              std::vector<std::string>{"AntiCirce RexExclusive"});
    EXPECT_EQ(format_condition_lines({{"Circe", {"RexInclusive", "VerticalMirror"}}}, Language::English),
              std::vector<std::string>{"Circe VerticalMirror RexInclusive"});
    EXPECT_EQ(format_condition_lines({{"Circe", {"Assassin", "Mirror"}}}, Language::English),
              std::vector<std::string>{"Circe Mirror Assassin"});
    // EXAMPLES-antisup-03.out: `cond antisup circe` -> Circe first, then AntiCirce.
    EXPECT_EQ(format_condition_lines({{"AntiCirce", {"Super"}}, {"Circe", {}}}, Language::English),
              (std::vector<std::string>{"Circe", "AntiCirce Super"}));
    // EXAMPLES-antisup-06.out (twin b), TESTS-circe-20.out (twin b), REGRESSIONS-4_47_to_4_49-16.out.
    EXPECT_EQ(format_condition_lines({{"AntiCirce", {"Cheylan", "Super"}}}, Language::English),
              std::vector<std::string>{"AntiCirce Super Cheylan"});
    EXPECT_EQ(format_condition_lines({{"Circe", {"Strict", "Cage"}}}, Language::English),
              std::vector<std::string>{"Circe Cage Strict"});
    EXPECT_EQ(format_condition_lines({{"Circe", {"PWC"}}}, Language::English), std::vector<std::string>{"Circe PWC"});
    // EXAMPLES-antimars-01.out.
    EXPECT_EQ(format_condition_lines({{"AntiMarsCirce", {}}}, Language::English),
              std::vector<std::string>{"AntiMarsCirce"});
    // BEISPIEL-cirpiece-03.out, BEISPIEL-assass-01.out, BEISPIEL-parrain-01.out: German words.
    EXPECT_EQ(format_condition_lines({{"Circe", {"Chameleon"}}}, Language::German),
              std::vector<std::string>{"Circe Chamaeleon"});
    EXPECT_EQ(format_condition_lines({{"Circe", {"Assassin"}}, {"Circe", {}}}, Language::German).front(),
              "Circe Assassin");
    EXPECT_EQ(format_condition_lines({{"Circe", {"Parrain"}}}, Language::German),
              std::vector<std::string>{"Circe Parrain"});
}

// EXAMPLES-antisup-02.out and BEISPIEL-cirpiece-07.out: duplex options close the block.
TEST(PopeyeOutput, DuplexLines) {
    Problem p;
    p.stipulation = stip("ser-#4", Stipulation::Play::Direct, 5);
    p.conditions = {{"AntiCirce", {"Super"}}};
    p.options.half_duplex = true;
    p.setup.board = board_of("wKc8 wPb6 bKa8 bPa7");
    EXPECT_EQ(captions_of(format_header(p)),
              "  ser-#4                      2 + 2\n"
              "           AntiCirce Super\n"
              "             HalfDuplex\n");
    EXPECT_EQ(captions_of(format_header(p)), captions_of(reference_header("EXAMPLES-antisup-02")));

    p.language = Language::German;
    p.stipulation = stip("h#2", Stipulation::Play::Help, 4);
    p.conditions = {{"Circe", {"Clone"}}};
    p.options.half_duplex = false;
    p.options.duplex = true;
    p.setup.board = board_of("wPh6 wPf5 wKc1 bKe8 bQd7 bRf6 bPd6 bPd5");
    EXPECT_EQ(captions_of(format_header(p)),
              "  h#2                         3 + 5\n"
              "             Circe Clone\n"
              "               Duplex\n");
}

// EXAMPLES-lastcap-02.out / -03.out: NoBoard leaves only the remarks.
TEST(PopeyeOutput, NoBoardPrintsOnlyRemarks) {
    Problem p;
    p.stipulation = stip("#1", Stipulation::Play::Direct, 1);
    p.conditions = {{"Circe", {"Parrain", "LastCapture", "White", "Rg4"}}};
    p.options.no_board = true;
    p.setup.board = board_of("wKa1 wQf2 bKc1 bPb3 bPg4");
    EXPECT_EQ(format_header(p), "");
    EXPECT_EQ(reference_header("EXAMPLES-lastcap-02"), "");
    p.remarks = {"TO DO twin opt lastcap re4"};
    EXPECT_EQ(format_header(p), "TO DO twin opt lastcap re4\n");
    EXPECT_EQ(reference_header("EXAMPLES-lastcap-03"), "TO DO twin opt lastcap re4\n");
}

// REGRESSIONS-4_47_to_4_49-06.out: the WhiteToPlay warning, then a title too wide to centre.
TEST(PopeyeOutput, WhiteToPlayWarningAndWideTitle) {
    Problem p;
    p.title = "option WhiteToPlay not applicable in help play";
    p.stipulation = stip("h+1.5", Stipulation::Play::Help, 3);
    p.options.white_to_play = true;
    p.notes = {"WhiteToPlay not applicable - ignored"};
    p.setup.board = board_of("bKa6 wPb4 wKa3");
    const std::string header = format_header(p);
    EXPECT_EQ(header.substr(0, 85),
              "WhiteToPlay not applicable - ignored\n"
              "\n"
              "option WhiteToPlay not applicable in help play\n");
    EXPECT_EQ(header, reference_header("REGRESSIONS-4_47_to_4_49-06"));
}

// REGRESSIONS-4_47_to_4_49-16.out: a=>b shows the start position, the starter, the target.
TEST(PopeyeOutput, AToBShowsBothPositions) {
    Problem p;
    p.remarks = {"duplex didn't work in a=>b or proof games"};
    p.stipulation = stip("a=>b0.5", Stipulation::Play::AToB, 1);
    p.setup.side_to_move = BLACK;
    p.conditions = {{"Circe", {"PWC"}}};
    p.options.duplex = true;
    p.setup.board = board_of("wRa8 bRa7");
    p.start_board = board_of("wRa7 bRa8");
    const std::string header = format_header(p);
    EXPECT_NE(header.find("+---a---b---c---d---e---f---g---h---+\n"
                          "                              1 + 1\n"
                          "\n"
                          "            => (Black ->)\n"
                          "\n"
                          "\n"
                          "+---a"),
              std::string::npos);
    EXPECT_EQ(header, reference_header("REGRESSIONS-4_47_to_4_49-16"));
}

// TESTS-circe-23.out: a unit placed on an occupied square sends the old one to the underworld.
TEST(PopeyeOutput, UnderworldMessage) {
    Problem p;
    p.title = "pre-filling the underworld";
    p.stipulation = stip("~1", Stipulation::Play::Direct, 1);
    p.conditions = {{"Circe", {"Volcanic"}}};
    p.setup.board = board_of("wSb1");
    p.underworld = {{SQ_B1, make_piece(BLACK, ROOK)}};
    const std::string header = format_header(p);
    EXPECT_EQ(header.substr(0, 89),
              "b1 already occupied - old piece goes to the underworld.\n"
              "\n"
              "     pre-filling the underworld\n");
    EXPECT_EQ(header, reference_header("TESTS-circe-23"));
}

// Twin announcements (after the header): BEISPIEL-cirpiece-01.out, TESTS-circe-23.out.
TEST(PopeyeOutput, TwinLines) {
    Problem p;
    p.language = Language::German;
    Twin b;
    TwinOp op;
    op.kind = TwinOp::Kind::Condition;
    op.conditions = {{"Circe", {"Chameleon", "S", "B", "R", "Q", "S"}}};
    b.ops = {op};
    p.twins = {b};
    EXPECT_EQ(format_twin_line(p, 0), "a) ");
    EXPECT_EQ(format_twin_line(p, 1), "b) Circe Chamaeleon D->S->L->T->D  ");
    p.language = Language::English;
    p.twins[0].ops[0].conditions = {{"Circe", {"Parachute"}}};
    EXPECT_EQ(format_twin_line(p, 1), "b) Circe Parachute  ");
}

// The acceptance test: every reference problem, parsed from its .inp, gives the header
// prefix of its .out (see the rule at the top of this file).
TEST(PopeyeOutput, ReferenceHeaders) {
    std::vector<fs::path> inputs;
    for (const auto& entry : fs::directory_iterator(kProblems))
        if (entry.path().extension() == ".inp") inputs.push_back(entry.path());
    std::sort(inputs.begin(), inputs.end());
    ASSERT_EQ(inputs.size(), 66u);

    int matched = 0;
    for (const fs::path& input : inputs) {
        const std::string name = input.stem().string();
        SCOPED_TRACE(name);
        std::vector<Problem> problems;
        try {
            problems = parse_popeye_file(input.string());
        } catch (const std::exception& e) {
            ADD_FAILURE() << "parse error: " << e.what();
            continue;
        }
        ASSERT_EQ(problems.size(), 1u);
        const std::string expected = reference_header(name);
        const std::string actual = format_header(problems.front());
        EXPECT_EQ(actual, expected);
        if (actual == expected) ++matched;
    }
    std::printf("reference headers matched: %d of %zu\n", matched, inputs.size());
}

// Twin announcements: every line of a reference output that starts a twin ("a) ",
// "b) Circe Clone  ") is format_twin_line of that twin.
TEST(PopeyeOutput, ReferenceTwinLines) {
    int checked = 0;
    for (const auto& entry : fs::directory_iterator(kProblems)) {
        if (entry.path().extension() != ".inp") continue;
        const std::string name = entry.path().stem().string();
        SCOPED_TRACE(name);
        const std::vector<Problem> problems = parse_popeye_file(entry.path().string());
        ASSERT_EQ(problems.size(), 1u);
        const Problem& problem = problems.front();
        std::vector<std::string> expected;
        std::istringstream out(read_text(kProblems / (name + ".out")));
        for (std::string line; std::getline(out, line);)
            if (line.size() >= 3 && line[0] >= 'a' && line[0] <= 'z' && line.compare(1, 2, ") ") == 0)
                expected.push_back(line);
        if (problem.twins.empty()) {
            EXPECT_TRUE(expected.empty());
            continue;
        }
        ASSERT_EQ(expected.size(), problem.twins.size() + 1);
        for (size_t i = 0; i < expected.size(); ++i, ++checked) EXPECT_EQ(format_twin_line(problem, i), expected[i]);
    }
    EXPECT_GT(checked, 0);
}

}  // namespace
}  // namespace rebirth
