// The lab result each graded cell of a gradebook came from: its check's
// record (the GPU, the parent's times) and its seconds, which the cell's
// TaskResult alone does not carry.
#pragma once

#include "grade/gradebook.h"
#include "grade/lab_result.h"

#include <unordered_map>
#include <vector>

namespace hpclab {

class CellResults {
public:
    // `results` must outlive this (the gradebook points into them too).
    explicit CellResults(const std::vector<LabResult>& results)
    {
        for (const LabResult& r : results)
            for (const TaskResult& t : r.tasks) by_task_[&t] = &r;
    }
    // Null for a cell that was not graded.
    const LabResult* of(const BookCell& cell) const
    {
        const auto it = by_task_.find(cell.result);
        return it == by_task_.end() ? nullptr : it->second;
    }

private:
    std::unordered_map<const TaskResult*, const LabResult*> by_task_;
};

}  // namespace hpclab
