#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli.h"
#include "rebirth/legality_proof.h"
#include "rebirth/retro_certificate.h"
#include "rebirth/setup.h"

namespace rebirth::cli {

// `rebirth legal --fen FEN`: whether an orthodox diagram is legal, with its proof (a game
// from the game array, replayable by `rebirth verify` from the JSON line) or the reason it is
// illegal, or "unresolved". Exit 0 for every verdict.
int run_legal(const LegalArgs& args) {
    const Setup diagram = parse_fen(args.fen, "--fen");
    BuildLimits limits;
    limits.seconds = args.seconds;
    limits.threads = args.threads;
    const LegalityProof proof = judge_legality(diagram, args.depth, limits);
    RetroCertificate cert;
    cert.game = proof.game;
    // The certificate without retractions: the game, then "|" and nothing.
    const std::string game = proof.verdict == LegalityProof::Verdict::Legal ? certificate_text(cert, {}) : "";
    if (args.json) {
        nlohmann::json j;
        j["id"] = to_fen(diagram);
        j["kind"] = "legality";
        j["verdict"] = proof.verdict_name();
        if (!proof.reason.empty()) j["reason"] = proof.reason;
        j["solutions"] = nlohmann::json::array();
        j["certificates"] = nlohmann::json::array();
        if (proof.verdict == LegalityProof::Verdict::Legal) {
            j["plies"] = proof.game.size();
            j["solutions"].push_back(nlohmann::json::array());
            j["certificates"].push_back(game);
        }
        std::cout << j.dump() << "\n";
        return kExitOk;
    }
    std::cout << proof.verdict_name();
    if (proof.verdict == LegalityProof::Verdict::Legal)
        std::cout << ": a game of " << proof.game.size() << " half-moves reaches it\n"
                  << (proof.game.empty() ? std::string("(the game array)") : game.substr(0, game.rfind(" |"))) << "\n";
    else
        std::cout << ": " << proof.reason << "\n";
    return kExitOk;
}

}  // namespace rebirth::cli
