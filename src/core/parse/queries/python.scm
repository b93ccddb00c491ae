; Tags for Python (tags convention: @name.definition.*, @definition.*, @name.reference.*, @import.*).

; Definitions. A decorated definition spans its decorators, so the chunk and the line range include them;
; the undecorated patterns still fire and the wider node wins in extract.ts.
(class_definition name: (identifier) @name.definition.class) @definition.class
(function_definition name: (identifier) @name.definition.function) @definition.function
(decorated_definition
  definition: (class_definition name: (identifier) @name.definition.class)) @definition.class
(decorated_definition
  definition: (function_definition name: (identifier) @name.definition.function)) @definition.function

; Python 3.12 `type Alias = ...`.
(type_alias_statement (type (identifier) @name.definition.type)) @definition.type

; Module-level assignments: ALL_CAPS names are constants by convention, the rest are variables.
(module (expression_statement
  (assignment left: (identifier) @name.definition.constant)
  (#match? @name.definition.constant "^_*[A-Z][A-Z0-9_]*$")) @definition.constant)
(module (expression_statement
  (assignment left: (identifier) @name.definition.variable)
  (#not-match? @name.definition.variable "^_*[A-Z][A-Z0-9_]*$")) @definition.variable)

; Class attributes (`id: str`, `count = 0`) are fields of the class.
(class_definition body: (block (expression_statement
  (assignment left: (identifier) @name.definition.field)) @definition.field))

; References. PEP 8 capitalises class names, so a call to a capitalised name is an instantiation.
(call function: (identifier) @name.reference.call
  (#not-match? @name.reference.call "^_*[A-Z]"))
(call function: (attribute attribute: (identifier) @name.reference.call)
  (#not-match? @name.reference.call "^_*[A-Z]"))
(call function: (identifier) @name.reference.class
  (#match? @name.reference.class "^_*[A-Z]"))
(call function: (attribute attribute: (identifier) @name.reference.class)
  (#match? @name.reference.class "^_*[A-Z]"))

(class_definition superclasses: (argument_list (identifier) @name.reference.class))
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name.reference.class)))
(class_definition superclasses: (argument_list (subscript value: (identifier) @name.reference.class)))

(type (identifier) @name.reference.type)
(type (attribute attribute: (identifier) @name.reference.type))
(generic_type (identifier) @name.reference.type)
(decorator (identifier) @name.reference.call)
(decorator (call function: (identifier) @name.reference.call))
(decorator (attribute attribute: (identifier) @name.reference.call))

; Imports. `import a.b as c` brings in `c`; `from m import x as y` brings in `x` (the name in m).
(import_statement name: (dotted_name) @import.source)
(import_statement name: (aliased_import name: (dotted_name) @import.source alias: (identifier) @import.name))
(import_from_statement module_name: (_) @import.source)
(import_from_statement module_name: (_) @import.source name: (dotted_name) @import.name)
(import_from_statement module_name: (_) @import.source name: (aliased_import name: (dotted_name) @import.name))
