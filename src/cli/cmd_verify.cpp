#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"
#include "rebirth/legality_proof.h"
#include "rebirth/popeye_input.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/setup.h"
#include "rebirth/solve.h"
#include "rebirth/verify.h"

namespace rebirth::cli {

namespace {

// The retro certificates of `file` (the JSON lines `rebirth retro --json --certify` prints)
// replayed one by one (check_certificate_text), independently of the search that found them:
// per certificate "ok" or why it fails; the number that failed.
int verify_certificates(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw InputError(file, 0, file, "cannot read the file");
    int checked = 0, failed = 0, number = 0;
    std::string line;
    for (int line_no = 1; std::getline(in, line); ++line_no) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
        } catch (const nlohmann::json::exception& e) {
            throw InputError(file, line_no, line.substr(0, 40), std::string("not a JSON line: ") + e.what());
        }
        if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("solutions") ||
            !j["solutions"].is_array() || !j.contains("certificates") || !j["certificates"].is_array() ||
            j["certificates"].size() != j["solutions"].size())
            throw InputError(file, line_no, line.substr(0, 40),
                             "expected a line of `rebirth retro --json --certify` (id, solutions, certificates)");
        const Setup diagram = parse_fen(j["id"].get<std::string>(), file);
        // A legality proof's marks (`rebirth legal --frozen/--promoted`): its game keeps them.
        LegalityMarks marks;
        for (const auto& [key, squares] :
             {std::pair{"frozen", &marks.frozen}, std::pair{"promoted", &marks.promoted}}) {
            if (!j.contains(key)) continue;
            if (!j[key].is_string()) throw InputError(file, line_no, key, "a list of squares (\"a8,e8\") expected");
            *squares = parse_marked_squares(j[key].get<std::string>(), file + ":" + std::to_string(line_no) + " " + key,
                                            diagram.board);
        }
        const std::string words = j.value("condition_words", std::string());
        const std::vector<Condition> conditions =
            words.empty() ? std::vector<Condition>{} : parse_condition_words(words, file);
        for (size_t i = 0; i < j["certificates"].size(); ++i) {
            ++number;
            const auto& c = j["certificates"][i];
            if (c.is_null()) continue;
            if (!c.is_string() || !j["solutions"][i].is_array())
                throw InputError(file, line_no, "certificates", "a certificate is a string or null");
            ++checked;
            // The diagram's side to move: the side that did not move last. The first
            // retraction of a solution is the last move; a solution's certificate ends with it.
            Setup position = diagram;
            const std::string why = [&] {
                // Both sides may be asked (janko's type A): the certificate decides, so try both;
                // a legality proof (`rebirth legal --json`) is of the diagram's side to move.
                const bool given = j.value("kind", std::string()) == "legality";
                std::vector<Move> moves;
                for (Color to_move : {WHITE, BLACK}) {
                    if (given && to_move != diagram.side_to_move) continue;
                    position.side_to_move = to_move;
                    if (check_certificate_text(position, c.get<std::string>(), conditions,
                                               static_cast<int>(j["solutions"][i].size()), &moves)
                            .empty())
                        return marks_broken(moves, marks);
                }
                position.side_to_move = diagram.side_to_move;
                return check_certificate_text(position, c.get<std::string>(), conditions,
                                              static_cast<int>(j["solutions"][i].size()));
            }();
            std::cout << "certificate " << number << " (" << file << ":" << line_no
                      << "): " << (why.empty() ? std::string("ok") : "FAILS: " + why) << "\n";
            if (!why.empty()) ++failed;
        }
    }
    std::cout << "verified " << checked - failed << " of " << checked << " certificate(s)\n";
    return failed;
}

// One claimed problem's verdict, as text or one JSON line; the exit code it calls for.
int verify_problem(const ClaimedProblem& c, const VerifyArgs& args) {
    const nlohmann::json r = claim_result(c, args.threads, args.max_seconds);
    if (args.json) {
        nlohmann::json j;
        for (const char* key : {"file", "verdict", "claimed", "found", "cooks", "missing", "duals", "why"})
            if (r.contains(key)) j[key] = r[key];
        std::cout << j.dump() << "\n";
    } else {
        std::cout << claim_result_text(r);
    }
    const std::string verdict = r["verdict"];
    return verdict == "sound" ? kExitOk : verdict == "unverified" ? kExitUnverified : kExitUnsound;
}

}  // namespace

// `rebirth verify FILE...`: retro certificates (.json / .jsonl) or claimed solutions of
// problems (Popeye files, YAML files of one or more problems: verify.h). Every file is checked; bad input in one is
// reported (file, line and word) and the others go on. Exit: bad input 2, else a claim cooked or wrong 3, else one
// undecided 4 (or a certificate that fails: 2), else 0.
int run_verify(const VerifyArgs& args) {
    bool bad = false, unsound = false, unverified = false;
    for (const std::string& file : args.files) {
        try {
            const bool json = file.ends_with(".json") || file.ends_with(".jsonl");
            if (json) {
                bad |= verify_certificates(file) > 0;
                continue;
            }
            // Each problem of the file (a YAML file may hold several); one that cannot be read
            // is reported and the others go on.
            for (const ClaimedProblem& c : read_claims(file)) {
                if (c.error) {
                    std::cerr << "rebirth: " << c.error->what() << "\n";
                    bad = true;
                    continue;
                }
                const int code = verify_problem(c, args);
                unsound |= code == kExitUnsound;
                unverified |= code == kExitUnverified;
            }
        } catch (const InputError& e) {
            std::cerr << "rebirth: " << e.what() << "\n";
            bad = true;
        }
    }
    return bad ? kExitBadInput : unsound ? kExitUnsound : unverified ? kExitUnverified : kExitOk;
}

}  // namespace rebirth::cli
