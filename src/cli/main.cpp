#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "rebirth/error.h"

using namespace rebirth;

int main(int argc, char** argv) {
    CLI::App app{"rebirth: exhaustive analyzer for chess problems under the Circe family of conditions"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "rebirth 0.1.0");

    cli::PerftArgs perft;
    CLI::App* perft_cmd =
        app.add_subcommand("perft", "Count the leaves of the legal move tree (last line of output: the count)");
    auto* fen_opt = perft_cmd->add_option("--fen", perft.fen, "Position as a standard FEN (N = knight)");
    auto* file_opt = perft_cmd->add_option("file", perft.file, "Popeye problem file (.inp)");
    fen_opt->excludes(file_opt);
    perft_cmd->add_option("--problem", perft.problem, "Which problem of the file, 1-based")
        ->check(CLI::PositiveNumber)
        ->default_val(1);
    perft_cmd->add_option("--depth", perft.depth, "Depth in half-moves")->required()->check(CLI::Range(1, 64));
    perft_cmd->add_flag("--divide", perft.divide, "First print '<move>: <count>' for every legal first move");
    perft_cmd->add_option("--condition", perft.condition, "Popeye condition words, e.g. \"Circe Strict\"");
    perft_cmd->add_option("--threads", perft.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);

    cli::SolveArgs solve;
    CLI::App* solve_cmd =
        app.add_subcommand("solve", "Solve every problem of a Popeye input file, printing Popeye's output");
    solve_cmd->add_option("file", solve.file, "Popeye problem file (.inp)")->required();
    solve_cmd->add_option("--threads", solve.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    solve_cmd->add_flag("--regression", solve.regression, "Leave out solving times (as Popeye's -regression)");
    solve_cmd->add_flag("--json", solve.json,
                        "After each problem print one JSON line: id, stipulation, solutions, status, nodes, "
                        "seconds, threads");
    CLI::Option* pgn_flag = solve_cmd->add_flag(
        "--pgn", solve.pgn,
        "Print the proof games (dia, a=>b) found as PGN instead of Popeye's text, rebirths in comments; other "
        "stipulations are left out with a message");
    solve_cmd->get_option("--json")->excludes(pgn_flag);
    solve_cmd->add_option("--maxtime", solve.max_seconds, "Time limit per problem in seconds (reported as timeout)")
        ->check(CLI::PositiveNumber);
    solve_cmd->add_flag("--quiet", solve.quiet, "No progress heartbeat on stderr");

    cli::RetroArgs retro;
    CLI::App* retro_cmd = app.add_subcommand("retro", "What were the last N single moves? Every sequence not refuted");
    retro_cmd->add_option("--fen", retro.fen, "The diagram as a FEN (its side-to-move field is not used)")->required();
    retro_cmd->add_option("--last", retro.last, "Single moves asked, the last played first")
        ->check(CLI::Range(1, 40))
        ->default_val(1);
    retro_cmd->add_option("--side", retro.side, "The side that moved last, w or b (default: both tried)");
    retro_cmd->add_option("--depth", retro.depth, "Single moves looked further back to refute a last move")
        ->check(CLI::Range(0, 12))
        ->default_val(3);
    retro_cmd->add_option("--condition", retro.condition,
                          "Popeye condition words (Circe, AntiCirce, MarsCirce, AntiMarsCirce, Circe Assassin "
                          "and their square rules); default orthodox");
    retro_cmd->add_option("--threads", retro.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    retro_cmd
        ->add_option("--certify", retro.certify,
                     "Prove sequences possible: look for a proof game of at most this many half-moves to the "
                     "position each one leads back to (default 0: none)")
        ->check(CLI::Range(0, 60));
    retro_cmd
        ->add_option("--certify-seconds", retro.certify_seconds, "Time limit of each --certify search (default 10)")
        ->check(CLI::NonNegativeNumber);
    retro_cmd->add_flag("--certify-long", retro.certify_long,
                        "Orthodox: where no game of at most --certify half-moves is found, look for one of any "
                        "length (constructive search, --certify-seconds again)");
    retro_cmd->add_flag("--json", retro.json, "One JSON line: id, verdict, solutions, side, depth");
    retro_cmd->add_option("--retractor", retro.retractor,
                          "Solve a defensive retractor instead (White moved last): \"-n & #1\", \"-n & s#1\" or "
                          "\"-n & =1\", Proca unless --hoeg");
    retro_cmd->add_flag("--hoeg", retro.hoeg, "Retractor of type Hoeg: the other side decides what was uncaptured");
    retro_cmd->add_option("--type", retro.type,
                          "Retractor type: proca (the retracting side decides its uncaptures), hoeg (the other "
                          "side), klan (White decides every uncapture) or pacific (no uncaptures)");
    retro_cmd
        ->add_option("--maxtime", retro.max_seconds,
                     "Time limit of a retractor's search in seconds: first retractions not settled by then are "
                     "listed unresolved (default: none)")
        ->check(CLI::NonNegativeNumber);
    retro_cmd->add_flag("--no-forward-defence", retro.no_forward_defence,
                        "Retractor without forward defence (Black may not reach the aim first)");

    cli::LegalArgs legal;
    CLI::App* legal_cmd = app.add_subcommand(
        "legal",
        "Is an orthodox diagram legal? \"legal\" with a game from the game array that reaches it (found by a "
        "best-first search, replayed), \"illegal\" with the reason, or \"unresolved\"");
    legal_cmd
        ->add_option("--fen", legal.fen,
                     "The diagram as a FEN (side to move, castling and en passant rights as claims)")
        ->required();
    legal_cmd->add_option("--depth", legal.depth, "Single moves looked back to refute it (default 3)")
        ->check(CLI::Range(0, 8));
    legal_cmd->add_option("--seconds", legal.seconds, "Time for the search of a game (default 10)")
        ->check(CLI::PositiveNumber);
    legal_cmd->add_option("--threads", legal.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    legal_cmd->add_option("--frozen", legal.frozen,
                          "Squares of units that never moved, as claims (\"a8,e8\"): the verdict holds with them");
    legal_cmd->add_option("--promoted", legal.promoted,
                          "Squares of units that came from a promotion, as claims (\"e1\")");
    legal_cmd->add_flag("--json", legal.json,
                        "One JSON line: id, verdict, reason, plies, certificates (replayed by rebirth verify)");

    cli::VerifyArgs verify;
    CLI::App* verify_cmd = app.add_subcommand(
        "verify",
        "Check claimed solutions against rebirth's own (proof games, help and series lines, keys of battle play; "
        "a Popeye file of one problem with its claimed solution after EndProblem, or a YAML file), or replay retro "
        "certificates (.json / .jsonl lines of `rebirth retro "
        "--json --certify`). Exit 0: all sound; 3: a claim cooked, dual or wrong; 4: a claim not decided");
    verify_cmd->add_option("files", verify.files, "Popeye files with claimed solutions, or .json / .jsonl certificates")
        ->required();
    verify_cmd->add_flag("--json", verify.json, "One JSON line per claimed problem: file, verdict, counts, cooks");
    verify_cmd->add_option("--threads", verify.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    verify_cmd->add_option("--maxtime", verify.max_seconds, "Time limit per problem in seconds (default: none)")
        ->check(CLI::NonNegativeNumber);

    cli::CookcheckArgs cookcheck;
    CLI::App* cookcheck_cmd = app.add_subcommand(
        "cookcheck",
        "rebirth verify over collections: every Popeye file (.inp) of the directories and files given, its "
        "claimed solution after EndProblem; counts per verdict. Exit as verify (0 all sound, 3 cooked or wrong, "
        "4 undecided, 2 bad input)");
    cookcheck_cmd->add_option("paths", cookcheck.paths, "Files and directories of claimed problems")->required();
    cookcheck_cmd->add_option("--threads", cookcheck.threads, "Worker threads (default: all cores)")
        ->check(CLI::NonNegativeNumber);
    cookcheck_cmd->add_option("--maxtime", cookcheck.max_seconds, "Time limit per problem in seconds (default: none)")
        ->check(CLI::NonNegativeNumber);
    cookcheck_cmd->add_option("--report", cookcheck.report,
                              "Write the results as JSON to this file (.json; the HTML report is not implemented yet)");
    cookcheck_cmd->add_option("--journal", cookcheck.journal,
                              "Keep each finished result in this file; a run started again with it resumes");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        int code = app.exit(e);
        return code == 0 ? cli::kExitOk : cli::kExitBadInput;
    }

    try {
        if (*perft_cmd) {
            if (perft.fen.empty() && perft.file.empty()) {
                std::cerr << "rebirth perft: give a position with --fen FEN or a problem FILE.inp\n";
                return cli::kExitBadInput;
            }
            return cli::run_perft(perft);
        }
        if (*solve_cmd) return cli::run_solve(solve);
        if (*retro_cmd) return cli::run_retro(retro);
        if (*legal_cmd) return cli::run_legal(legal);
        if (*verify_cmd) return cli::run_verify(verify);
        if (*cookcheck_cmd) return cli::run_cookcheck(cookcheck);
    } catch (const InputError& e) {
        std::cerr << "rebirth: " << e.what() << "\n";
        return cli::kExitBadInput;
    } catch (const std::exception& e) {
        std::cerr << "rebirth: internal error: " << e.what() << "\n";
        return cli::kExitInternal;
    }
    return cli::kExitInternal;
}
