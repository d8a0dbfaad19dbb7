export default { serverExternalPackages: ["postgres"] };
