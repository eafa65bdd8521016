#pragma once

// Helpers shared by the cluster test suites.

#include <gtest/gtest.h>

#include <string>

#include "rebirth/cluster/job.h"
#include "rebirth/error.h"

namespace rebirth::cluster::test {

// The InputError a job text raises (fails the test when none); paths are taken from `base`.
inline InputError job_error(const std::string& text, const std::string& base) {
    try {
        parse_job(text, "job.json", base);
    } catch (const InputError& e) {
        return e;
    }
    ADD_FAILURE() << "no error for: " << text;
    return InputError("", 0, "", "");
}

}  // namespace rebirth::cluster::test
