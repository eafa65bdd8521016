#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace rebirth::cluster {

// Per-problem limits of a job (the "limits" object of a job file).
struct Limits {
    int threads = 0;            // TBB threads per worker rank (0 = all cores of the rank)
    double item_seconds = 5.0;  // a worker hands back the rest of an item's children after this
    int items_per_rank = 16;    // initial split: about this many items per worker rank
    double max_seconds = 0;     // solve: time limit of one problem (0 = none)
    friend bool operator==(const Limits&, const Limits&) = default;
};

// One problem of a job: problem `index` (1-based) of a Popeye file. `error` is set when
// the file could not be read or parsed; such a problem is reported, never searched.
struct JobProblem {
    std::string id;    // file stem, "-K" appended when the file holds several problems
    std::string file;  // path as resolved against the job file's directory
    int index = 1;
    std::string kind = "perft";  // "perft", "solve", "proofgame" / "retro" (solve, proof games / retro only),
                                 // "cookcheck" (index: the claimed problem's number in read_claims), "noop"
    int depth = 0;               // perft only
    int items = 0;               // noop only: number of empty items
    Limits limits;
    std::string error;
};

struct Job {
    std::string source;  // the job file
    std::string
        kind;  // the default kind of its problems: "perft", "solve", "proofgame", "retro", "cookcheck" or "noop"
    std::vector<JobProblem> problems;
    std::string output_dir;
    std::string journal;
};

// Whether problems of `kind` are solved (as `rebirth solve --regression`): "solve",
// "proofgame" and "retro".
inline bool solves(const std::string& kind) { return kind == "solve" || kind == "proofgame" || kind == "retro"; }

// Parses a job file's text. Relative paths (globs, output_dir, journal) are resolved
// against `base_dir`. Throws InputError(file, line, key, reason) on syntax errors, unknown
// keys, wrong types or values, globs that match nothing, duplicate problem ids and, in a
// proofgame entry, a problem that is no proof game (naming its file and line).
Job parse_job(std::string_view text, const std::string& file_name, const std::string& base_dir);

// Reads and parses a job file (relative paths resolved against its directory).
Job load_job(const std::string& path);

// Reads a whole file; throws InputError naming it when it cannot be read.
std::string read_file_bytes(const std::string& path);

// 1-based line of byte `offset` in `text`.
int line_of_offset(std::string_view text, std::size_t offset);

}  // namespace rebirth::cluster
