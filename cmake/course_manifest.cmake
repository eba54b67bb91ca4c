# The build's manifest, rooflab_manifest.json: the one list of assignments the
# grader and release tools read. course_add_assignment records each assignment
# in a global property; rooflab_write_manifest() writes them all at the end of
# configuration.

# The manifest is JSON built up in a global property and written once at the end
# of configuration by rooflab_write_manifest().
function(_course_record_assignment name student_files public_tests has_profile cuda_files thrust_files)
  set(entry "{}")
  string(JSON entry SET "${entry}" name "\"${name}\"")
  file(RELATIVE_PATH rel_dir "${ROOFLAB_COURSE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  string(JSON entry SET "${entry}" dir "\"${rel_dir}\"")
  foreach(key IN ITEMS student_files public_tests cuda_files thrust_files)
    set(array "[]")
    set(index 0)
    foreach(file IN LISTS ${key})
      string(JSON array SET "${array}" ${index} "\"${file}\"")
      math(EXPR index "${index} + 1")
    endforeach()
    string(JSON entry SET "${entry}" ${key} "${array}")
  endforeach()
  set(has_hidden false)
  if(TARGET ${name}_hidden_tests)
    set(has_hidden true)
  endif()
  string(JSON entry SET "${entry}" has_hidden_tests ${has_hidden})
  # The rubric beside the hidden tests (grading/rubric.toml), for the grader.
  set(rubric "")
  if(EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/grading/rubric.toml")
    set(rubric "${CMAKE_CURRENT_SOURCE_DIR}/grading/rubric.toml")
  endif()
  string(JSON entry SET "${entry}" rubric "\"${rubric}\"")
  string(JSON entry SET "${entry}" has_profile ${has_profile})
  set_property(GLOBAL APPEND PROPERTY ROOFLAB_ASSIGNMENTS "${entry}")
endfunction()

function(rooflab_write_manifest)
  get_property(entries GLOBAL PROPERTY ROOFLAB_ASSIGNMENTS)
  set(assignments "[]")
  set(index 0)
  foreach(entry IN LISTS entries)
    string(JSON assignments SET "${assignments}" ${index} "${entry}")
    math(EXPR index "${index} + 1")
  endforeach()
  set(manifest "{}")
  string(JSON manifest SET "${manifest}" course_dir "\"${ROOFLAB_COURSE_DIR}\"")
  string(JSON manifest SET "${manifest}" source_dir "\"${PROJECT_SOURCE_DIR}\"")
  string(JSON manifest SET "${manifest}" binary_dir "\"${PROJECT_BINARY_DIR}\"")
  set(with_cuda false)
  if(ROOFLAB_WITH_CUDA)
    set(with_cuda true)
  endif()
  string(JSON manifest SET "${manifest}" with_cuda ${with_cuda})
  # The grader's report counts a submission's registers per thread with the
  # same nvcc (`--resource-usage`) for the GPU model; "" where there is none.
  set(nvcc "")
  if(ROOFLAB_WITH_CUDA)
    set(nvcc "${CMAKE_CUDA_COMPILER}")
  endif()
  string(JSON manifest SET "${manifest}" nvcc "\"${nvcc}\"")
  # Where this build's own CUDA kernels run (cmake/cuda.cmake): the grader
  # compares a submission's speed with the reference's only like with like.
  string(JSON manifest SET "${manifest}" kernels_on "\"${ROOFLAB_KERNELS_ON}\"")
  # Grading builds compile student Thrust code against the same Thrust as the
  # objects in the grading kit.
  string(JSON manifest SET "${manifest}" thrust_dir "\"${Thrust_DIR}\"")
  string(JSON manifest SET "${manifest}" assignments "${assignments}")
  file(WRITE "${PROJECT_BINARY_DIR}/rooflab_manifest.json" "${manifest}\n")
endfunction()
