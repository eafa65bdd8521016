// The published problem corpus of data/problems/: for every problem, rebirth's full solution
// set (the keys of direct and self play, every line of help and series play, per twin)
// equals the published solution recorded in data/problems/index.jsonl with its source.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "rebirth/popeye_input.h"
#include "rebirth/solve.h"
#include "test_util.h"

using namespace rebirth;

namespace {

const std::string kData = REBIRTH_SOURCE_DIR "/data/problems/";

struct Entry {
    std::string id;
    std::string file;
    std::vector<std::string> solution;
    std::string known_divergence;  // why rebirth's answer differs from the published one
};

std::vector<Entry> load() {
    std::vector<Entry> out;
    for (const auto& j : test::read_jsonl(kData + "index.jsonl")) {
        out.push_back({j.at("id"), j.at("file"), j.at("solution").get<std::vector<std::string>>(),
                       j.value("known_divergence", std::string())});
    }
    return out;
}

void PrintTo(const Entry& e, std::ostream* os) { *os << e.id; }

std::string without_spaces(const std::string& s) {
    std::string r;
    for (char c : s)
        if (c != ' ') r += c;
    return r;
}

// The solutions in rebirth's output: key lines ("   1.Sa8-b6 !") and play lines ("  1.xx yy
// 2.zz #"), each prefixed with its twin label ("a) ") when the problem has twins; spaces
// removed for the comparison.
std::vector<std::string> solutions_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line, twin;
    while (std::getline(in, line)) {
        if (line.size() >= 3 && line[0] >= 'a' && line[0] <= 'z' && line[1] == ')' && line[2] == ' ') {
            twin = line.substr(0, 3);
            continue;
        }
        // A key: "   1.Sa8-b6 !", possibly followed by " threat:" or " zugzwang.".
        const size_t bang = line.find(" !");
        const bool key = line.size() > 5 && line.compare(0, 3, "   ") == 0 &&
                         std::isdigit(static_cast<unsigned char>(line[3])) && bang != std::string::npos;
        const bool play =
            line.size() > 3 && line.compare(0, 2, "  ") == 0 && std::isdigit(static_cast<unsigned char>(line[2]));
        if (key)
            out.push_back(without_spaces(twin + line.substr(0, bang + 2)));
        else if (play)
            out.push_back(without_spaces(twin + line));
    }
    std::sort(out.begin(), out.end());
    return out;
}

class DataProblem : public ::testing::TestWithParam<Entry> {};

std::string entry_name(const ::testing::TestParamInfo<Entry>& info) {
    std::string n = info.param.id;
    for (char& c : n)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return n;
}

}  // namespace

// Every problem file of data/problems/ has its entry, and none is skipped.
TEST(DataCorpus, IndexesEveryProblemFile) {
    const std::vector<Entry> entries = load();
    EXPECT_EQ(entries.size(), 56u);
    std::vector<std::string> indexed, files;
    for (const Entry& e : entries) {
        indexed.push_back(e.file);
        EXPECT_TRUE(e.known_divergence.empty()) << e.id << ": " << e.known_divergence;
    }
    for (const auto& f : std::filesystem::directory_iterator(kData))
        if (f.path().extension() == ".inp") files.push_back(f.path().filename().string());
    std::sort(indexed.begin(), indexed.end());
    std::sort(files.begin(), files.end());
    EXPECT_EQ(indexed, files);
}

TEST_P(DataProblem, SolutionSetEqualsThePublishedOne) {
    const Entry& e = GetParam();
    ASSERT_TRUE(e.known_divergence.empty()) << "known divergence: " << e.known_divergence;
    const std::vector<Problem> problems = parse_popeye_file(kData + e.file);
    ASSERT_EQ(problems.size(), 1u);
    const std::string text = solve_problem(problems.front(), 0);
    std::vector<std::string> expected;
    for (const std::string& s : e.solution) expected.push_back(without_spaces(s));
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(solutions_of(text), expected) << text;
}

INSTANTIATE_TEST_SUITE_P(Published, DataProblem, ::testing::ValuesIn(load()), entry_name);
