#include "rebirth/error.h"

namespace rebirth {

namespace {

std::string format_message(const std::string& file, int line, const std::string& word, const std::string& reason) {
    std::string msg = file.empty() ? std::string("<input>") : file;
    if (line > 0) msg.append(":").append(std::to_string(line));
    msg.append(": ").append(reason);
    if (!word.empty()) msg.append(" '").append(word).append("'");
    return msg;
}

}  // namespace

InputError::InputError(std::string file, int line, std::string word, const std::string& reason)
    : std::runtime_error(format_message(file, line, word, reason)),
      file_(std::move(file)),
      line_(line),
      word_(std::move(word)),
      reason_(reason) {}

}  // namespace rebirth
