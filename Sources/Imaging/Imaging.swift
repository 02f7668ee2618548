public enum Imaging {}
