#include "rebirth/solution_json.h"

#include <memory>
#include <string>
#include <vector>

#include "rebirth/notation.h"
#include "solve/solve_internal.h"

namespace rebirth {

namespace {

nlohmann::json line_json(Position pos, const PlayLine& line, Language lang) {
    nlohmann::json moves = nlohmann::json::array();
    for (const Move& m : line.moves) {
        if (m.is_null()) {
            pos.set_side_to_move_for_analysis(~pos.side_to_move());
            continue;
        }
        moves.push_back(move_to_popeye(pos, m, false, lang));
        UndoInfo u;
        pos.do_move(m, u);
    }
    nlohmann::json j{
        {"twin", line.twin}, {"play", line.play}, {"first", line.first == WHITE ? "w" : "b"}, {"moves", moves}};
    if (line.set_play) j["set_play"] = true;
    return j;
}

// A node's move and the play below it (pos: the position before the move).
nlohmann::json node_json(const Position& pos, const PlayNode& node, Language lang) {
    nlohmann::json j{{"move", move_to_popeye(pos, node.move, false, lang)}};
    Position after = pos;
    UndoInfo u;
    after.do_move(node.move, u);
    // Threats are the attacker's moves after a pass of the defender.
    Position passed = after;
    passed.set_side_to_move_for_analysis(~after.side_to_move());
    for (const PlayNode& c : node.children) {
        const char* list = c.kind == PlayNode::Kind::Threat       ? "threats"
                           : c.kind == PlayNode::Kind::Defence    ? "defences"
                           : c.kind == PlayNode::Kind::Refutation ? "refutations"
                                                                  : "continuations";
        const bool threat = c.kind == PlayNode::Kind::Threat;
        j[list].push_back(c.kind == PlayNode::Kind::Refutation
                              ? nlohmann::json{{"move", move_to_popeye(after, c.move, false, lang)}}
                              : node_json(threat ? passed : after, c, lang));
    }
    return j;
}

}  // namespace

nlohmann::json solutions_json(const Problem& p, const SolveReport& report) {
    const auto twins = twins_of(p);
    std::vector<std::unique_ptr<TwinSetup>> setups;
    for (const auto& [tw, line] : twins) setups.push_back(load_twin(tw));
    nlohmann::json out = nlohmann::json::object();
    for (auto [key, lines] : {std::pair{"games", &report.proof_games}, {"lines", &report.lines}})
        for (const PlayLine& l : *lines)
            out[key].push_back(
                line_json(play_start(*setups.at(size_t(l.twin)), l.first, twins[size_t(l.twin)].first), l, p.language));
    for (const PlayTree& t : report.trees) {
        nlohmann::json j{
            {"twin", t.twin}, {"play", t.play}, {"kind", t.root.kind == PlayNode::Kind::Key ? "key" : "try"}};
        j.update(node_json(play_start(*setups.at(size_t(t.twin)), t.first, twins[size_t(t.twin)].first), t.root,
                           p.language));
        out["trees"].push_back(j);
    }
    return out;
}

}  // namespace rebirth
