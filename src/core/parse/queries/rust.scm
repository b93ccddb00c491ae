; Tags for Rust (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).
; Items in an `impl Foo` / `impl Trait for Foo` block name Foo with @container, so they become `Foo.bar`.

(function_item name: (identifier) @name.definition.function) @definition.function
(function_signature_item name: (identifier) @name.definition.function) @definition.function
(struct_item name: (type_identifier) @name.definition.struct) @definition.struct
(union_item name: (type_identifier) @name.definition.struct) @definition.struct
(enum_item name: (type_identifier) @name.definition.enum) @definition.enum
(trait_item name: (type_identifier) @name.definition.trait) @definition.trait
(type_item name: (type_identifier) @name.definition.type) @definition.type
(associated_type name: (type_identifier) @name.definition.type) @definition.type
(mod_item name: (identifier) @name.definition.module) @definition.module
(macro_definition name: (identifier) @name.definition.macro) @definition.macro
(const_item name: (identifier) @name.definition.constant) @definition.constant
(static_item name: (identifier) @name.definition.constant) @definition.constant
(enum_variant name: (identifier) @name.definition.constant) @definition.constant
(field_declaration_list (field_declaration name: (field_identifier) @name.definition.field) @definition.field)

(impl_item
  type: [
    (type_identifier) @container
    (generic_type type: (type_identifier) @container)
    (scoped_type_identifier name: (type_identifier) @container)
    (generic_type type: (scoped_type_identifier name: (type_identifier) @container))]
  body: (declaration_list [
    (function_item name: (identifier) @name.definition.method) @definition.method
    (const_item name: (identifier) @name.definition.constant) @definition.constant
    (type_item name: (type_identifier) @name.definition.type) @definition.type]))

; References. Every type identifier is a type use (`Self` aside); extract.ts drops the declaring one.
(call_expression function: (identifier) @name.reference.call)
(call_expression function: (field_expression field: (field_identifier) @name.reference.call))
(call_expression function: (scoped_identifier name: (identifier) @name.reference.call))
(call_expression function: (generic_function function: [
  (identifier) @name.reference.call
  (field_expression field: (field_identifier) @name.reference.call)
  (scoped_identifier name: (identifier) @name.reference.call)]))
(call_expression function: (scoped_identifier path: (identifier) @name.reference.type)
  (#match? @name.reference.type "^[A-Z]"))
(macro_invocation macro: (identifier) @name.reference.call)
(macro_invocation macro: (scoped_identifier name: (identifier) @name.reference.call))
((type_identifier) @name.reference.type (#not-eq? @name.reference.type "Self"))
(struct_expression name: (type_identifier) @name.reference.class)
(struct_expression name: (scoped_type_identifier name: (type_identifier) @name.reference.class))
(impl_item trait: [
  (type_identifier) @name.reference.implementation
  (scoped_type_identifier name: (type_identifier) @name.reference.implementation)
  (generic_type type: (type_identifier) @name.reference.implementation)
  (generic_type type: (scoped_type_identifier name: (type_identifier) @name.reference.implementation))])

; Imports: `use a::b::C;`, `use a::{b, C as D};`, `use a::b as c;`, `use a::*;`, `use foo;`.
(use_declaration argument: (identifier) @import.source)
(use_declaration argument: (scoped_identifier path: (_) @import.source name: (identifier) @import.name))
(use_declaration argument: (use_as_clause path: (scoped_identifier path: (_) @import.source name: (identifier) @import.name)))
(use_declaration argument: (use_as_clause path: (identifier) @import.source))
(use_declaration argument: (use_wildcard (_) @import.source))
(use_declaration argument: (scoped_use_list path: (_) @import.source))
(use_declaration argument: (scoped_use_list path: (_) @import.source list: (use_list [
  (identifier) @import.name
  (scoped_identifier name: (identifier) @import.name)
  (use_as_clause path: (identifier) @import.name)
  (use_as_clause path: (scoped_identifier name: (identifier) @import.name))])))
