#include <memory>
#include <string>
#include <vector>

#include "rebirth/pgn.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

std::string joined(const std::vector<std::string>& words, const std::string& glue) {
    std::string s;
    for (const std::string& w : words) s += (s.empty() ? "" : glue) + w;
    return s;
}

// The conditions as Popeye's words: "Circe Parrain", "AntiCirce Calvet; Madrasi".
std::string conditions_text(const std::vector<Condition>& conditions) {
    std::vector<std::string> each;
    for (const Condition& c : conditions) {
        std::vector<std::string> words{c.name};
        words.insert(words.end(), c.args.begin(), c.args.end());
        each.push_back(joined(words, " "));
    }
    return joined(each, "; ");
}

}  // namespace

std::string proof_games_pgn(const Problem& p, const SolveReport& report) {
    const auto twins = twins_of(p);
    std::vector<std::unique_ptr<TwinSetup>> setups(twins.size());
    std::string out;
    int number = 0;
    for (const PlayLine& g : report.proof_games) {
        if (g.twin < 0 || g.twin >= static_cast<int>(twins.size()))
            throw std::invalid_argument("a proof game of no twin of the problem");
        const Problem& tw = twins[size_t(g.twin)].first;
        auto& setup = setups[size_t(g.twin)];
        if (!setup) setup = load_twin(tw);
        Position start = setup->pos;
        if (start.side_to_move() != g.first) start.set_side_to_move_for_analysis(g.first);
        std::vector<PgnTag> tags{{"Event", p.origin.empty() ? "?" : p.origin},
                                 {"Site", "?"},
                                 {"Date", "????.??.??"},
                                 {"Round", std::to_string(++number)},
                                 {"White", "?"},
                                 {"Black", "?"},
                                 {"Result", "*"}};
        if (!p.authors.empty()) tags.push_back({"Composer", joined(p.authors, "; ")});
        tags.push_back({"Stipulation", tw.stipulation.text});
        if (!tw.conditions.empty()) tags.push_back({"Condition", conditions_text(tw.conditions)});
        if (!p.twins.empty()) tags.push_back({"Twin", twins[size_t(g.twin)].second});
        const Setup s = start.to_setup();
        const std::string fen = to_fen(s);
        if (fen != kGameArrayFen) {
            tags.push_back({"SetUp", "1"});
            tags.push_back({"FEN", fen});
        }
        tags.push_back({"PlyCount", std::to_string(g.moves.size())});
        out += pgn_game(tags, start, g.moves);
    }
    return out;
}

}  // namespace rebirth
