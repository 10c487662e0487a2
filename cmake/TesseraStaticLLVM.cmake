# Links LLVM's static component libraries into Tessera's executables
# instead of Debian's libLLVM.so (TESSERA_STATIC_LLVM, docs/building.md).
#
# Why: libLLVM.so.19.1 is a 100+ MB shared object that pulls in libz3,
# libxml2, libicu, libedit, libffi and more; loading, relocating and
# initializing them cost every process ~13 ms and ~45 MB of RSS before
# main(), most of an executable-cache hit. Statically linked, a tool
# carries only the LLVM code it calls, bound at link time.
#
# Debian's LLVMConfig sets LLVM_LINK_LLVM_DYLIB, and its MLIRTargets.cmake
# lists the imported target `LLVM` (the shared library) in the interface of
# ~360 MLIR libraries. Both are undone here, after find_package(MLIR) and
# include(AddLLVM), before any target of ours is declared:
# - LLVM_LINK_LLVM_DYLIB OFF makes llvm_add_library / add_llvm_executable
#   map our LINK_COMPONENTS to the static LLVM<Component> targets;
# - `LLVM` in the imported MLIR libraries' interface becomes
#   TesseraLLVMStatic, an interface target carrying the static components.
#
# The mlir-opt plugin (tools/plugin) names `LLVM` itself and keeps it: it
# must bind to the host mlir-opt's LLVM, never carry a second copy.

set(LLVM_LINK_LLVM_DYLIB OFF)

# The LLVM components the MLIR libraries we link call into. Debian's MLIR
# export lost each library's own list (they all say `LLVM`), so this is the
# union for the MLIR libraries Tessera links, found with the linker: a
# component missing here shows as undefined llvm:: symbols when a tool
# links. Each component's imported target brings the components it depends
# on (LLVMExports.cmake), so the list stays short.
set(TESSERA_MLIR_LLVM_COMPONENTS Support)

llvm_map_components_to_libnames(tessera_llvm_static_libs
  ${TESSERA_MLIR_LLVM_COMPONENTS})
add_library(TesseraLLVMStatic INTERFACE)
target_link_libraries(TesseraLLVMStatic INTERFACE ${tessera_llvm_static_libs})

foreach(target IN LISTS MLIR_EXPORTED_TARGETS)
  if(NOT TARGET ${target})
    continue()
  endif()
  get_target_property(libs ${target} INTERFACE_LINK_LIBRARIES)
  if(libs AND "LLVM" IN_LIST libs)
    list(TRANSFORM libs REPLACE "^LLVM$" TesseraLLVMStatic)
    set_target_properties(${target} PROPERTIES
      INTERFACE_LINK_LIBRARIES "${libs}")
  endif()
endforeach()
