// A lab's classic mistakes (lab.json "mistakes") as the walkthrough's
// Markdown table: what `hpclab list <lab> --markdown` prints, and what a
// docs test finds between the page's "mistakes:begin" and "mistakes:end".
#pragma once

#include "course/lab_catalog.h"

#include <string>

namespace hpclab {

std::string mistakes_markdown(const LabInfo& lab);

}  // namespace hpclab
